/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.Spindle;
import dev.spindle.actor.ActorConfig;
import dev.spindle.actor.ActorCreationException;
import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorStoppedException;
import dev.spindle.actor.ActorSystem;
import dev.spindle.actor.MailboxFullException;
import dev.spindle.async.Async;
import dev.spindle.async.AsyncChannel;
import dev.spindle.async.AsyncPromise;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncSemaphore;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import dev.spindle.async.io.AsyncTcpListener;
import dev.spindle.async.io.AsyncTcpStream;
import dev.spindle.async.io.Reactor;
import dev.spindle.async.io.ReactorGroup;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Graph;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.pool.ComputeTask;
import dev.spindle.pool.PinnedPool;
import dev.spindle.pool.PriorityPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import dev.spindle.queue.ForkStack;
import dev.spindle.queue.Injector;
import dev.spindle.queue.LifoSlot;
import dev.spindle.queue.OwnerFifo;
import dev.spindle.queue.StealResult;
import dev.spindle.queue.WorkStealingDeque;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.assertj.core.api.SoftAssertions;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Checks the {@code @throws} clauses of the public API against what the methods throw for the
 * inputs they name (null, out of range, after shutdown). Each clause is one soft assertion, so a
 * run lists every mismatch at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DocThrowsRegressionTest {

    private final SoftAssertions softly = new SoftAssertions();

    private void expect(String clause, Class<? extends Throwable> type, ThrowingCallable call) {
        Throwable t = catchThrowable(call);
        softly.assertThat(t).as(clause).isInstanceOf(type);
    }

    static final class Const extends ComputeTask<Integer> {
        @Override
        protected Integer compute() {
            return 1;
        }
    }

    @Test
    void corePoolsThrowWhatTheirJavadocSays() {
        Runnable nop = () -> { };
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            expect("WSP.execute(null)", NullPointerException.class, () -> pool.execute(null));
            expect("WSP.execute(task, null)", NullPointerException.class, () -> pool.execute(nop, null));
            expect("WSP.execute(null, hints)", NullPointerException.class, () -> pool.execute(null, Hints.DEFAULT));
            expect("WSP.spawn((Callable) null)", NullPointerException.class, () -> pool.spawn((Callable<Object>) null));
            expect("WSP.spawn((ComputeTask) null)", NullPointerException.class, () -> pool.spawn((ComputeTask<Object>) null));
            expect("WSP.invoke((Callable) null)", NullPointerException.class, () -> pool.invoke((Callable<Object>) null));
            expect("WSP.invoke((ComputeTask) null)", NullPointerException.class, () -> pool.invoke((ComputeTask<Object>) null));
            expect("WSP.parallelFor(5, 4)", IllegalArgumentException.class, () -> pool.parallelFor(5, 4, i -> { }));
            expect("WSP.parallelFor(body null)", NullPointerException.class, () -> pool.parallelFor(0, 1, (IntConsumer) null));
            expect("WSP.parallelFor(empty range, body null)", NullPointerException.class,
                    () -> pool.parallelFor(0, 0, (IntConsumer) null));
            expect("WSP.submit((Callable) null)", NullPointerException.class, () -> pool.submit((Callable<Object>) null));
            expect("WSP.submit((Runnable) null)", NullPointerException.class, () -> pool.submit((Runnable) null));
            expect("WSP.submit((Runnable) null, v)", NullPointerException.class, () -> pool.submit((Runnable) null, 1));
            Const started = new Const();
            pool.invoke(started);
            expect("WSP.invoke(started)", IllegalStateException.class, () -> pool.invoke(started));
            expect("WSP.spawn(started)", IllegalStateException.class, () -> pool.spawn(started));
            expect("ComputeTask.invoke() twice", IllegalStateException.class, started::invoke);
            expect("ComputeTask.fork() off a worker", IllegalStateException.class, () -> new Const().fork());
            pool.shutdown();
            expect("WSP.execute after shutdown", RejectedExecutionException.class, () -> pool.execute(nop));
            expect("WSP.execute(hints) after shutdown", RejectedExecutionException.class,
                    () -> pool.execute(nop, Hints.DEFAULT));
            expect("WSP.spawn after shutdown", RejectedExecutionException.class, () -> pool.spawn(() -> 1));
            expect("WSP.spawn(ComputeTask) after shutdown", RejectedExecutionException.class, () -> pool.spawn(new Const()));
            expect("WSP.invoke after shutdown", RejectedExecutionException.class, () -> pool.invoke(() -> 1));
            expect("WSP.invoke(ComputeTask) after shutdown", RejectedExecutionException.class, () -> pool.invoke(new Const()));
            expect("WSP.submit after shutdown", RejectedExecutionException.class, () -> pool.submit(() -> 1));
            expect("WSP.submit(Runnable) after shutdown", RejectedExecutionException.class, () -> pool.submit(nop));
            expect("WSP.submit(Runnable, v) after shutdown", RejectedExecutionException.class, () -> pool.submit(nop, 1));
            expect("WSP.parallelFor after shutdown", RejectedExecutionException.class, () -> pool.parallelFor(0, 100, i -> { }));
        }
        WorkStealingPool.Builder b = WorkStealingPool.builder();
        expect("localQueueCapacity(0)", IllegalArgumentException.class, () -> b.localQueueCapacity(0));
        expect("localQueueCapacity(-1)", IllegalArgumentException.class, () -> b.localQueueCapacity(-1));
        expect("stealAttempts(0)", IllegalArgumentException.class, () -> b.stealAttempts(0));
        expect("maxSpareWorkers(-1)", IllegalArgumentException.class, () -> b.maxSpareWorkers(-1));
        expect("spareKeepAlive(ZERO)", IllegalArgumentException.class, () -> b.spareKeepAlive(Duration.ZERO));
        expect("spareKeepAlive(-1s)", IllegalArgumentException.class, () -> b.spareKeepAlive(Duration.ofSeconds(-1)));
        expect("spareKeepAlive(null)", NullPointerException.class, () -> b.spareKeepAlive(null));
        expect("workers(0)", IllegalArgumentException.class, () -> b.workers(0));
        expect("workers(-1)", IllegalArgumentException.class, () -> b.workers(-1));
        expect("name(blank)", IllegalArgumentException.class, () -> b.name("  "));
        expect("name(empty)", IllegalArgumentException.class, () -> b.name(""));
        expect("name(null)", NullPointerException.class, () -> b.name(null));
        expect("threadFactory(null)", NullPointerException.class, () -> b.threadFactory(null));
        expect("uncaughtExceptionHandler(null)", NullPointerException.class, () -> b.uncaughtExceptionHandler(null));

        Scheduler[] others = {
            WorkSharingPool.builder().workers(1).build(),
            PriorityPool.builder().workers(1).build(),
            PinnedPool.builder().workers(1).build(),
        };
        for (Scheduler s : others) {
            String n = s.getClass().getSimpleName();
            expect(n + ".execute(null)", NullPointerException.class, () -> s.execute(null));
            expect(n + ".execute(task, null)", NullPointerException.class, () -> s.execute(nop, null));
            expect(n + ".execute(null, hints)", NullPointerException.class, () -> s.execute(null, Hints.DEFAULT));
            ((java.util.concurrent.ExecutorService) s).shutdown();
            expect(n + ".execute after shutdown", RejectedExecutionException.class, () -> s.execute(nop));
            expect(n + ".execute(hints) after shutdown", RejectedExecutionException.class,
                    () -> s.execute(nop, Hints.DEFAULT.withWorkerIndex(3).withPriority(-2)));
            try {
                ((AutoCloseable) s).close();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }
        softly.assertAll();
    }

    @Test
    void unionHintsAndBlockingThrowWhatTheirJavadocSays() {
        Runnable nop = () -> { };
        expect("SchedulerUnion.of()", IllegalArgumentException.class, () -> SchedulerUnion.of());
        expect("SchedulerUnion.owning()", IllegalArgumentException.class, () -> SchedulerUnion.owning());
        expect("SchedulerUnion.of(null array)", NullPointerException.class, () -> SchedulerUnion.of((Scheduler[]) null));
        expect("SchedulerUnion.owning(null array)", NullPointerException.class,
                () -> SchedulerUnion.owning((Scheduler[]) null));
        try (WorkSharingPool a = WorkSharingPool.builder().workers(1).build()) {
            expect("SchedulerUnion.of(a, null)", NullPointerException.class, () -> SchedulerUnion.of(a, null));
            expect("SchedulerUnion.owning(a, null)", NullPointerException.class, () -> SchedulerUnion.owning(a, null));
            expect("Builder.add(null)", NullPointerException.class, () -> SchedulerUnion.builder().add(null));
            expect("Builder.build() empty", IllegalArgumentException.class, () -> SchedulerUnion.builder().build());
            SchedulerUnion union = SchedulerUnion.of(a);
            expect("union.execute(index 1 of 1)", IllegalArgumentException.class,
                    () -> union.execute(nop, Hints.DEFAULT.withSchedulerIndex(1)));
            expect("union.execute(null)", NullPointerException.class, () -> union.execute(null));
            expect("union.execute(null, hints)", NullPointerException.class, () -> union.execute(null, Hints.DEFAULT));
            expect("union.execute(task, null)", NullPointerException.class, () -> union.execute(nop, null));
            expect("union.member(1)", IndexOutOfBoundsException.class, () -> union.member(1));
            expect("union.member(-1)", IndexOutOfBoundsException.class, () -> union.member(-1));
            union.shutdown();
            expect("union.execute after shutdown", RejectedExecutionException.class, () -> union.execute(nop));
            expect("union.execute(hints) after shutdown", RejectedExecutionException.class,
                    () -> union.execute(nop, Hints.DEFAULT));
        }
        expect("withSchedulerIndex(-1)", IllegalArgumentException.class, () -> Hints.DEFAULT.withSchedulerIndex(-1));
        expect("withWorkerIndex(-1)", IllegalArgumentException.class, () -> Hints.DEFAULT.withWorkerIndex(-1));
        expect("Spindle.blocking((Section) null)", NullPointerException.class,
                () -> Spindle.blocking((Spindle.Section<Object, RuntimeException>) null));
        expect("Spindle.blocking((VoidSection) null)", NullPointerException.class,
                () -> Spindle.blocking((Spindle.VoidSection<RuntimeException>) null));
        softly.assertAll();
    }

    @Test
    void queuesThrowWhatTheirJavadocSays() {
        expect("ForkStack(3)", IllegalArgumentException.class, () -> new ForkStack<Object>(3, x -> true));
        expect("ForkStack(0)", IllegalArgumentException.class, () -> new ForkStack<Object>(0, x -> true));
        expect("ForkStack(2048)", IllegalArgumentException.class, () -> new ForkStack<Object>(2048, x -> true));
        expect("ForkStack(8, null)", NullPointerException.class, () -> new ForkStack<Object>(8, null));
        Injector<Object> injector = new Injector<>();
        WorkStealingDeque<Object> deque = new WorkStealingDeque<>();
        OwnerFifo<Object> fifo = new OwnerFifo<>(16);
        expect("Injector.offer(null)", NullPointerException.class, () -> injector.offer(null));
        expect("Injector.offerAll(null, 0)", NullPointerException.class, () -> injector.offerAll(null, 0));
        expect("Injector.offerAll(arr, -1)", IllegalArgumentException.class, () -> injector.offerAll(new Object[1], -1));
        expect("Injector.offerAll(arr, 2 of 1)", IllegalArgumentException.class, () -> injector.offerAll(new Object[1], 2));
        expect("Injector.offerAll([x, null], 2)", NullPointerException.class,
                () -> injector.offerAll(new Object[] {"x", null}, 2));
        softly.assertThat(injector.poll()).as("offerAll with a null left nothing behind").isNull();
        expect("Injector.pollBatch(deque, 0)", IllegalArgumentException.class, () -> injector.pollBatch(deque, 0));
        expect("Injector.pollBatch(fifo, 0)", IllegalArgumentException.class, () -> injector.pollBatch(fifo, 0));
        expect("Injector.pollShare(deque, 0)", IllegalArgumentException.class, () -> injector.pollShare(deque, 0));
        expect("Injector.pollShare(fifo, 0)", IllegalArgumentException.class, () -> injector.pollShare(fifo, 0));
        expect("LifoSlot.put(null)", NullPointerException.class, () -> new LifoSlot<Object>().put(null));
        expect("OwnerFifo(3)", IllegalArgumentException.class, () -> new OwnerFifo<Object>(3));
        expect("OwnerFifo(0)", IllegalArgumentException.class, () -> new OwnerFifo<Object>(0));
        expect("OwnerFifo(MAX*2)", IllegalArgumentException.class, () -> new OwnerFifo<Object>(OwnerFifo.MAX_CAPACITY * 2));
        expect("OwnerFifo.offer(null)", NullPointerException.class, () -> fifo.offer(null));
        expect("StealResult.success(null)", NullPointerException.class, () -> StealResult.success(null));
        expect("StealResult.empty().value()", NoSuchElementException.class, () -> StealResult.empty().value());
        expect("StealResult.retry().value()", NoSuchElementException.class, () -> StealResult.retry().value());
        expect("WSD(1, 8)", IllegalArgumentException.class, () -> new WorkStealingDeque<Object>(1, 8));
        expect("WSD(8, 4)", IllegalArgumentException.class, () -> new WorkStealingDeque<Object>(8, 4));
        expect("WSD(2, MAX*2)", IllegalArgumentException.class,
                () -> new WorkStealingDeque<Object>(2, WorkStealingDeque.MAX_CAPACITY + 1));
        expect("WSD.offer(null)", NullPointerException.class, () -> deque.offer(null));
        expect("WSD.push(null)", NullPointerException.class, () -> deque.push(null));
        WorkStealingDeque<Object> small = new WorkStealingDeque<>(2, 2);
        small.push("a");
        small.push("b");
        expect("WSD.push at max capacity", IllegalStateException.class, () -> small.push("c"));
        expect("WSD.stealBatch(this)", IllegalArgumentException.class, () -> deque.stealBatch(deque, 1));
        expect("WSD.stealBatch(other, 0)", IllegalArgumentException.class, () -> small.stealBatch(deque, 0));
        expect("WSD.stealBatch(null)", NullPointerException.class, () -> small.stealBatch(null, 1));
        expect("WSD.stealBatchOrNull(this)", IllegalArgumentException.class, () -> deque.stealBatchOrNull(deque, 1));
        expect("WSD.stealBatchOrNull(other, 0)", IllegalArgumentException.class, () -> small.stealBatchOrNull(deque, 0));
        expect("WSD.stealBatchOrNull(null)", NullPointerException.class, () -> small.stealBatchOrNull(null, 1));
        expect("WSD.stealBatch(this) on empty", IllegalArgumentException.class, () -> deque.stealBatch(deque, 1));
        expect("WSD.takeOldest(null)", NullPointerException.class, () -> deque.takeOldest(null, 1));
        expect("WSD.takeOldest(out, -1)", IllegalArgumentException.class, () -> deque.takeOldest(new Object[1], -1));
        expect("WSD.takeOldest(short out)", IllegalArgumentException.class, () -> deque.takeOldest(new Object[1], 2));
        softly.assertAll();
    }

    @Test
    void asyncThrowsWhatItsJavadocSays() throws Exception {
        AsyncTask<Integer> one = Async.ready(1);
        expect("Async.failed(null)", NullPointerException.class, () -> Async.failed(null));
        expect("Async.from(null)", NullPointerException.class, () -> Async.from(null));
        expect("Async.map(null, fn)", NullPointerException.class, () -> Async.map(null, x -> x));
        expect("Async.map(task, null)", NullPointerException.class, () -> Async.map(one, null));
        expect("Async.then(null, fn)", NullPointerException.class, () -> Async.then((AsyncTask<Integer>) null, x -> one));
        expect("Async.then(task, null)", NullPointerException.class, () -> Async.then(one, null));
        expect("Async.recover(null, h)", NullPointerException.class, () -> Async.recover(null, e -> 1));
        expect("Async.recover(task, null)", NullPointerException.class, () -> Async.recover(one, null));
        expect("Async.loop(s, null)", NullPointerException.class, () -> Async.loop(1, null));
        expect("Async.whileTrue(null)", NullPointerException.class, () -> Async.whileTrue(null));
        expect("Async.all(null)", NullPointerException.class, () -> Async.all(null));
        expect("Async.all([null])", NullPointerException.class, () -> Async.all(Arrays.asList(one, null)));
        expect("Async.select(null)", NullPointerException.class, () -> Async.select(null));
        expect("Async.select([null])", NullPointerException.class, () -> Async.select(Arrays.asList(one, null)));
        expect("Async.select([])", IllegalArgumentException.class, () -> Async.select(List.of()));
        expect("Async.any(null)", NullPointerException.class, () -> Async.any(null));
        expect("Async.any([null])", NullPointerException.class, () -> Async.any(Arrays.asList(one, null)));
        expect("Async.any([])", IllegalArgumentException.class, () -> Async.any(List.of()));
        expect("Async.sleep(null)", NullPointerException.class, () -> Async.sleep(null));
        expect("Async.timeout(null, d)", NullPointerException.class, () -> Async.timeout(null, Duration.ofSeconds(1)));
        expect("Async.timeout(task, null)", NullPointerException.class, () -> Async.timeout(one, null));
        expect("Async.unchecked(null)", NullPointerException.class, () -> Async.unchecked(null));

        AsyncRuntime.Builder b = AsyncRuntime.builder();
        expect("workers(0)", IllegalArgumentException.class, () -> b.workers(0));
        expect("workers(MAX+1)", IllegalArgumentException.class, () -> b.workers(AsyncRuntime.MAX_WORKERS + 1));
        expect("policy(null)", NullPointerException.class, () -> b.policy(null));
        expect("budget(0)", IllegalArgumentException.class, () -> b.budget(0));
        expect("name(blank)", IllegalArgumentException.class, () -> b.name(" "));
        expect("name(null)", NullPointerException.class, () -> b.name(null));
        expect("driveIo(null)", NullPointerException.class, () -> b.driveIo(null));
        try (ReactorGroup driven = ReactorGroup.openDriven(2)) {
            expect("driveIo([null])", NullPointerException.class, () -> AsyncRuntime.builder().driveIo(Arrays.asList(driven.reactors().get(0), null)));
            expect("driveIo([r, r])", IllegalArgumentException.class,
                    () -> AsyncRuntime.builder().driveIo(List.of(driven.reactors().get(0), driven.reactors().get(0))));
            expect("build() with more drivers than workers", IllegalArgumentException.class,
                    () -> AsyncRuntime.builder().workers(1).driveIo(driven.reactors()).build().close());
        }
        try (Reactor own = Reactor.open()) {
            expect("Reactor.open().claim()", IllegalStateException.class, own::claim);
        }
        expect("Reactor.shared().close()", IllegalStateException.class, () -> Reactor.shared().close());
        expect("ReactorGroup.shared().close()", IllegalStateException.class, () -> ReactorGroup.shared().close());
        expect("ReactorGroup.open(0)", IllegalArgumentException.class, () -> ReactorGroup.open(0));
        expect("ReactorGroup.openDriven(0)", IllegalArgumentException.class, () -> ReactorGroup.openDriven(0));
        try (ReactorGroup driven = ReactorGroup.openDriven(1)) {
            Reactor r = driven.reactors().get(0);
            r.claim();
            expect("claim twice", IllegalStateException.class, r::claim);
            r.unclaim();
        }

        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            expect("spawn(null)", NullPointerException.class, () -> rt.spawn(null));
            expect("run(null)", NullPointerException.class, () -> rt.run(null));
            expect("busiestTasks(0)", IllegalArgumentException.class, () -> rt.busiestTasks(0));
            expect("busiestTasks(MAX+1)", IllegalArgumentException.class, () -> rt.busiestTasks(AsyncRuntime.MAX_BUSIEST_TASKS + 1));
            List<Throwable> fromWorker = new ArrayList<>();
            AsyncPromise<Integer> never = new AsyncPromise<>();
            JoinHandle<Integer> pending = rt.spawn(never);
            rt.spawn(cx -> {
                try {
                    rt.run(one);
                } catch (Throwable t) {
                    fromWorker.add(t);
                }
                try {
                    pending.get();
                } catch (Throwable t) {
                    fromWorker.add(t);
                }
                try {
                    pending.get(1, TimeUnit.SECONDS);
                } catch (Throwable t) {
                    fromWorker.add(t);
                }
                return Poll.ready(null);
            }).get(20, TimeUnit.SECONDS);
            softly.assertThat(fromWorker).as("run, get, get(timeout) from the only worker")
                    .hasSize(3).allMatch(t -> t instanceof IllegalStateException);
            never.complete(1);
            rt.shutdown();
            expect("spawn after shutdown", RejectedExecutionException.class, () -> rt.spawn(one));
            expect("run after shutdown", RejectedExecutionException.class, () -> rt.run(one));
        }
        expect("AsyncSemaphore(-1)", IllegalArgumentException.class, () -> new AsyncSemaphore(-1));
        AsyncSemaphore full = new AsyncSemaphore(Integer.MAX_VALUE);
        expect("release at MAX", IllegalStateException.class, full::release);
        softly.assertThat(full.availablePermits()).as("count after a refused release").isEqualTo(Integer.MAX_VALUE);
        expect("AsyncChannel(0)", IllegalArgumentException.class, () -> new AsyncChannel<Integer>(0));
        expect("AsyncChannel.send(null)", NullPointerException.class, () -> new AsyncChannel<Integer>(1).send(null));
        expect("completeExceptionally(null)", NullPointerException.class, () -> new AsyncPromise<Integer>().completeExceptionally(null));
        softly.assertAll();
    }

    @Test
    void tcpThrowsWhatItsJavadocSays() throws Exception {
        InetSocketAddress any = new InetSocketAddress("127.0.0.1", 0);
        expect("bind(addr, (Reactor) null)", NullPointerException.class, () -> AsyncTcpListener.bind(any, (Reactor) null).close());
        expect("bind(addr, (ReactorGroup) null)", NullPointerException.class,
                () -> AsyncTcpListener.bind(any, (ReactorGroup) null).close());
        expect("connect(null)", NullPointerException.class, () -> AsyncTcpStream.connect(null));
        expect("connect(null, reactor)", NullPointerException.class, () -> AsyncTcpStream.connect(null, Reactor.shared()));
        expect("connect(addr, null)", NullPointerException.class, () -> AsyncTcpStream.connect(any, null));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncTcpListener listener = AsyncTcpListener.bind(any);
            expect("bind on a port in use", IOException.class, () -> AsyncTcpListener.bind(listener.localAddress()).close());
            JoinHandle<AsyncTcpStream> accepted = rt.spawn(listener.accept());
            AsyncTcpStream stream = rt.run(AsyncTcpStream.connect(listener.localAddress()));
            expect("read(null)", NullPointerException.class, () -> stream.read(null));
            expect("read(read-only)", IllegalArgumentException.class, () -> stream.read(ByteBuffer.allocate(4).asReadOnlyBuffer()));
            expect("write(null)", NullPointerException.class, () -> stream.write(null));
            expect("writeAll(null)", NullPointerException.class, () -> stream.writeAll(null));
            stream.close();
            expect("shutdownOutput after close", UncheckedIOException.class, stream::shutdownOutput);
            accepted.get(20, TimeUnit.SECONDS).close();
            listener.close();
            expect("localAddress after close", UncheckedIOException.class, listener::localAddress);
        }
        softly.assertAll();
    }

    static final class Box {
        int n;
    }

    @Test
    void actorsThrowWhatTheirJavadocSays() throws Exception {
        ActorConfig.Builder cb = ActorConfig.builder();
        expect("ActorConfig.name(blank)", IllegalArgumentException.class, () -> cb.name(" "));
        expect("ActorConfig.name(null)", NullPointerException.class, () -> cb.name(null));
        expect("schedulerIndex(-1)", IllegalArgumentException.class, () -> cb.schedulerIndex(-1));
        expect("maxMessagesPerActivation(0)", IllegalArgumentException.class, () -> cb.maxMessagesPerActivation(0));
        expect("mailboxCapacity(0)", IllegalArgumentException.class, () -> cb.mailboxCapacity(0));
        expect("ActorSystem.create(null)", NullPointerException.class, () -> ActorSystem.create(null));
        ActorSystem.Builder sb = ActorSystem.builder();
        expect("ActorSystem.Builder.name(blank)", IllegalArgumentException.class, () -> sb.name(" "));
        expect("ActorSystem.Builder.name(null)", NullPointerException.class, () -> sb.name(null));
        expect("ActorSystem.Builder.scheduler(null)", NullPointerException.class, () -> sb.scheduler(null));
        expect("ActorSystem.Builder.failureHandler(null)", NullPointerException.class, () -> sb.failureHandler(null));
        ActorConfig cfg = ActorConfig.builder().build();
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build();
                SchedulerUnion union = SchedulerUnion.of(pool);
                ActorSystem onUnion = ActorSystem.create(union)) {
            ActorConfig second = ActorConfig.builder().schedulerIndex(1).build();
            expect("spawn on a union without member 1", IllegalArgumentException.class, () -> onUnion.spawn(Box::new, second));
            expect("spawnWithSelf on a union without member 1", IllegalArgumentException.class,
                    () -> onUnion.spawnWithSelf(self -> new Box(), second));
        }
        ActorSystem system = ActorSystem.builder().build();
        try (system) {
            expect("spawn(null)", NullPointerException.class, () -> system.spawn(null));
            expect("spawn(null, cfg)", NullPointerException.class, () -> system.spawn(null, cfg));
            expect("spawn(f, null)", NullPointerException.class, () -> system.spawn(Box::new, null));
            expect("spawnWithSelf(null)", NullPointerException.class, () -> system.spawnWithSelf(null));
            expect("spawnWithSelf(null, cfg)", NullPointerException.class, () -> system.spawnWithSelf(null, cfg));
            expect("spawnWithSelf(f, null)", NullPointerException.class, () -> system.spawnWithSelf(self -> new Box(), null));
            expect("spawn(() -> null)", ActorCreationException.class, () -> system.spawn(() -> null));
            expect("spawn(throws)", ActorCreationException.class, () -> system.spawn(() -> {
                throw new IllegalStateException("no");
            }));
            expect("spawnWithSelf(self -> null)", ActorCreationException.class, () -> system.spawnWithSelf(self -> null));
            expect("deepestMailboxes(0)", IllegalArgumentException.class, () -> system.deepestMailboxes(0));
            expect("deepestMailboxes(1001)", IllegalArgumentException.class, () -> system.deepestMailboxes(1001));
            ActorRef<Box> box = system.spawn(Box::new, ActorConfig.builder().mailboxCapacity(1).build());
            expect("tell(null)", NullPointerException.class, () -> box.tell(null));
            expect("ask(null)", NullPointerException.class, () -> box.ask(null));
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            box.tell(b -> {
                entered.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            entered.await();
            box.tell(b -> b.n++);                            // fills the one-slot mailbox
            expect("tell on a full mailbox", MailboxFullException.class, () -> box.tell(b -> b.n++));
            CompletableFuture<Integer> asked = box.ask(b -> b.n);
            Throwable askFailure = catchThrowable(() -> asked.get(20, TimeUnit.SECONDS));
            softly.assertThat(askFailure).as("ask on a full mailbox").isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(MailboxFullException.class);
            box.stop();
            expect("tell after stop on a full mailbox: no throw", NoThrow.class, () -> {
                box.tell(b -> b.n++);
                throw new NoThrow();
            });
            CompletableFuture<Integer> afterStop = box.ask(b -> b.n);
            release.countDown();
            Throwable stopped = catchThrowable(() -> afterStop.get(20, TimeUnit.SECONDS));
            softly.assertThat(stopped).as("ask after stop").isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ActorStoppedException.class);
        }
        expect("spawn after close", RejectedExecutionException.class, () -> system.spawn(Box::new));
        expect("spawn(cfg) after close", RejectedExecutionException.class, () -> system.spawn(Box::new, cfg));
        expect("spawnWithSelf after close", RejectedExecutionException.class, () -> system.spawnWithSelf(self -> new Box()));
        expect("spawnWithSelf(cfg) after close", RejectedExecutionException.class, () -> system.spawnWithSelf(self -> new Box(), cfg));
        softly.assertAll();
    }

    /** Thrown by a check whose call must not throw, so that reaching it is the expected outcome. */
    private static final class NoThrow extends RuntimeException {
    }

    @Test
    void clusterThrowsWhatItsJavadocSays() throws Exception {
        LocalCluster.Builder lb = LocalCluster.builder();
        expect("workers(0)", IllegalArgumentException.class, () -> lb.workers(0));
        expect("threadsPerWorker(0)", IllegalArgumentException.class, () -> lb.threadsPerWorker(0));
        expect("threadsPerWorker(MAX+1)", IllegalArgumentException.class,
                () -> lb.threadsPerWorker(CoordinatorSettings.MAX_THREADS_PER_WORKER + 1));
        expect("bandwidth(0)", IllegalArgumentException.class, () -> lb.bandwidth(0));
        expect("bandwidth(NaN)", IllegalArgumentException.class, () -> lb.bandwidth(Double.NaN));
        expect("bandwidth(inf)", IllegalArgumentException.class, () -> lb.bandwidth(Double.POSITIVE_INFINITY));
        expect("latency(-1)", IllegalArgumentException.class, () -> lb.latency(Duration.ofMillis(-1)));
        expect("latency(null)", NullPointerException.class, () -> lb.latency(null));
        expect("latency(huge)", IllegalArgumentException.class, () -> lb.latency(Duration.ofSeconds(Long.MAX_VALUE)));
        expect("balanceInterval(-1)", IllegalArgumentException.class, () -> lb.balanceInterval(Duration.ofMillis(-1)));
        expect("balanceInterval(null)", NullPointerException.class, () -> lb.balanceInterval(null));
        expect("retries(-1)", IllegalArgumentException.class, () -> lb.retries(-1));
        expect("minStealDuration(-1)", IllegalArgumentException.class, () -> lb.minStealDuration(Duration.ofMillis(-1)));
        expect("minStealDuration(null)", NullPointerException.class, () -> lb.minStealDuration(null));
        expect("saturatedOccupancy(-1)", IllegalArgumentException.class, () -> lb.saturatedOccupancy(Duration.ofMillis(-1)));
        expect("saturatedOccupancy(null)", NullPointerException.class, () -> lb.saturatedOccupancy(null));
        expect("defaultDuration(-1)", IllegalArgumentException.class, () -> lb.defaultDuration(Duration.ofMillis(-1)));
        expect("defaultDuration(null)", NullPointerException.class, () -> lb.defaultDuration(null));
        expect("memoryLimitPerWorker(-1)", IllegalArgumentException.class, () -> lb.memoryLimitPerWorker(-1));
        expect("from(null)", NullPointerException.class, () -> CoordinatorSettings.builder().from(null));

        expect("TaskSpec.builder(null, f)", NullPointerException.class, () -> TaskSpec.builder(null, args -> 1));
        expect("TaskSpec.builder(k, null)", NullPointerException.class, () -> TaskSpec.builder("k", null));
        expect("TaskSpec.builder(\"\", f)", IllegalArgumentException.class, () -> TaskSpec.builder("", args -> 1));
        expect("dependsOn(own)", IllegalArgumentException.class, () -> TaskSpec.builder("k", args -> 1).dependsOn("k"));
        expect("dependsOn((String[]) null)", NullPointerException.class,
                () -> TaskSpec.builder("k", args -> 1).dependsOn((String[]) null));
        expect("dependsOn(null key)", NullPointerException.class,
                () -> TaskSpec.builder("k", args -> 1).dependsOn("a", null));
        expect("dependsOn((ClusterFuture[]) null)", NullPointerException.class,
                () -> TaskSpec.builder("k", args -> 1).dependsOn((ClusterFuture<?>[]) null));
        expect("restrictions(null)", NullPointerException.class, () -> TaskSpec.builder("k", args -> 1).restrictions(null));
        expect("durationHint(-1)", IllegalArgumentException.class,
                () -> TaskSpec.builder("k", args -> 1).durationHint(Duration.ofMillis(-1)));
        expect("durationHint(null)", NullPointerException.class, () -> TaskSpec.builder("k", args -> 1).durationHint(null));
        expect("Restrictions.strict(null)", NullPointerException.class, () -> Restrictions.strict(null));
        expect("Restrictions.strict({})", IllegalArgumentException.class, () -> Restrictions.strict(Set.of()));
        expect("Restrictions.strict({-1})", IllegalArgumentException.class, () -> Restrictions.strict(Set.of(-1)));
        Set<Integer> withNull = new HashSet<>(Arrays.asList(0, null));
        expect("Restrictions.strict({0, null})", IllegalArgumentException.class, () -> Restrictions.strict(withNull));
        expect("Restrictions.loose({0, null})", IllegalArgumentException.class, () -> Restrictions.loose(withNull));
        expect("Restrictions.loose({})", IllegalArgumentException.class, () -> Restrictions.loose(Set.of()));
        expect("Graph.task duplicate", IllegalArgumentException.class,
                () -> Graph.builder().task("a", args -> 1).task("a", args -> 2));
        expect("Graph.task((TaskSpec) null)", NullPointerException.class, () -> Graph.builder().task(null));
        expect("Graph.build() cycle", IllegalArgumentException.class,
                () -> Graph.builder().task("a", args -> 1, "b").task("b", args -> 1, "a").build());

        LocalCluster cluster = LocalCluster.builder().workers(2).build();
        Client client = cluster.client();
        try (LocalCluster other = LocalCluster.builder().workers(1).build()) {
            ClusterFuture<Integer> foreign = other.client().submit("x", args -> 1);
            foreign.get(20, TimeUnit.SECONDS);
            expect("submit depending on another cluster's future", IllegalArgumentException.class,
                    () -> client.submit("y", args -> 1, foreign));
            expect("map over another cluster's future", IllegalArgumentException.class,
                    () -> client.map("m", args -> 1, List.of(foreign)));
            expect("gather another cluster's future", IllegalArgumentException.class, () -> client.gather(List.of(foreign)));
        }
        ClusterFuture<Integer> a = client.submit("a", args -> 1);
        a.get(20, TimeUnit.SECONDS);
        expect("submit(duplicate key)", IllegalArgumentException.class, () -> client.submit("a", args -> 1));
        expect("submit(unknown dependency)", IllegalArgumentException.class,
                () -> client.submit(TaskSpec.builder("b", args -> 1).dependsOn("nope").build()));
        expect("submit(graph, unknown dependency)", IllegalArgumentException.class,
                () -> client.submit(Graph.builder().task("c", args -> 1, "nope").build()));
        expect("submit(graph, key submitted before)", IllegalArgumentException.class,
                () -> client.submit(Graph.builder().task("a", args -> 1).build()));
        expect("submit(null key)", NullPointerException.class, () -> client.submit(null, args -> 1));
        expect("submit(null function)", NullPointerException.class, () -> client.submit("d", null));
        expect("submit(null dependency)", NullPointerException.class, () -> client.submit("d", args -> 1, (ClusterFuture<?>) null));
        expect("submit((TaskSpec) null)", NullPointerException.class, () -> client.submit((TaskSpec<Object>) null));
        expect("submit((Graph) null)", NullPointerException.class, () -> client.submit((Graph) null));
        expect("map(null prefix)", NullPointerException.class, () -> client.map(null, args -> 1, List.of(a)));
        expect("map(null fn)", NullPointerException.class, () -> client.map("m", null, List.of(a)));
        expect("map(null inputs)", NullPointerException.class, () -> client.map("m", args -> 1, null));
        expect("map([null])", NullPointerException.class, () -> client.map("m", args -> 1, Arrays.asList(a, null)));
        client.submit("m-0", args -> 1);
        expect("map(key prefix-i submitted before)", IllegalArgumentException.class,
                () -> client.map("m", args -> 1, List.of(a)));
        expect("submit(empty key)", IllegalArgumentException.class, () -> client.submit("", args -> 1));
        expect("scatter(null key)", NullPointerException.class, () -> client.scatter(null, 1, 0));
        expect("scatter(empty key)", IllegalArgumentException.class, () -> client.scatter("", 1, 0));
        expect("scatter(key submitted before)", IllegalArgumentException.class, () -> client.scatter("a", 1, 0));
        expect("scatter(no such worker)", IllegalArgumentException.class, () -> client.scatter("s", 1, 2));
        expect("scatter(negative worker)", IllegalArgumentException.class, () -> client.scatter("s", 1, -1));
        expect("scatter(not serialisable)", IllegalArgumentException.class, () -> client.scatter("s", new Object(), 0));
        expect("scatter(null prefix)", NullPointerException.class, () -> client.scatter(null, List.of(1)));
        expect("scatter(null values)", NullPointerException.class, () -> client.scatter("p", (List<Integer>) null));
        expect("scatter(list, not serialisable)", IllegalArgumentException.class,
                () -> client.scatter("p", List.of(new Object())));
        expect("scatter(list, key submitted before)", IllegalArgumentException.class, () -> client.scatter("m", List.of(1)));
        expect("gather(null)", NullPointerException.class, () -> client.gather(null));
        expect("gather([null])", NullPointerException.class, () -> client.gather(Arrays.asList(a, null)));
        ClusterFuture<Integer> released = client.submit("r", args -> 1);
        released.get(20, TimeUnit.SECONDS);
        released.release();
        expect("get() released", IllegalStateException.class, released::get);
        expect("get(t) released", IllegalStateException.class, () -> released.get(1, TimeUnit.SECONDS));
        expect("toCompletableFuture() released", IllegalStateException.class, released::toCompletableFuture);
        expect("gather(released)", IllegalStateException.class, () -> client.gather(List.of(released)));
        expect("addWorker(0)", IllegalArgumentException.class, () -> cluster.addWorker(0));
        expect("restartWorker(9)", IllegalArgumentException.class, () -> cluster.restartWorker(9));
        expect("restartWorker(running)", IllegalStateException.class, () -> cluster.restartWorker(0));
        expect("retire(9)", IllegalArgumentException.class, () -> cluster.retire(9));
        expect("killWorker(9)", IllegalArgumentException.class, () -> cluster.killWorker(9));
        expect("killWorker(-1)", IllegalArgumentException.class, () -> cluster.killWorker(-1));
        cluster.killWorker(1);
        expect("retire(gone)", IllegalStateException.class, () -> cluster.retire(1));
        expect("retire(last)", IllegalStateException.class, () -> cluster.retire(0));
        cluster.close();
        expect("submit after close", RejectedExecutionException.class, () -> client.submit("z", args -> 1));
        expect("submit(spec) after close", RejectedExecutionException.class,
                () -> client.submit(TaskSpec.builder("z", args -> 1).build()));
        expect("submit(graph) after close", RejectedExecutionException.class,
                () -> client.submit(Graph.builder().task("z", args -> 1).build()));
        expect("map after close", RejectedExecutionException.class, () -> client.map("mm", args -> 1, List.of(a)));
        expect("scatter after close", RejectedExecutionException.class, () -> client.scatter("s", 1, 0));
        expect("scatter(list) after close", RejectedExecutionException.class, () -> client.scatter("sl", List.of(1)));
        softly.assertThat(client.gather(List.of(a))).as("gather after close keeps completed values").containsExactly(1);
        expect("addWorker after close", RejectedExecutionException.class, cluster::addWorker);
        expect("addWorker(1) after close", RejectedExecutionException.class, () -> cluster.addWorker(1));
        expect("restartWorker after close", RejectedExecutionException.class, () -> cluster.restartWorker(1));
        expect("retire after close", RejectedExecutionException.class, () -> cluster.retire(0));
        expect("killWorker after close", RejectedExecutionException.class, () -> cluster.killWorker(0));
        expect("rebalance after close", RejectedExecutionException.class, cluster::rebalance);
        expect("stats after close", RejectedExecutionException.class, cluster::stats);
        expect("stealEvents after close", RejectedExecutionException.class, cluster::stealEvents);
        expect("taskEvents after close", RejectedExecutionException.class, cluster::taskEvents);
        softly.assertAll();
    }

    @Test
    void asyncRunAndBuildThrowWhatTheirJavadocSays() throws Exception {
        // run(): CancellationException if the runtime shut down first
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
        AtomicReference<Throwable> fromRun = new AtomicReference<>();
        // closed once the task has been polled: a spawn counts its task live before it looks
        // whether the runtime is closing, so a close seen right after the count came first, and
        // run() rightly threw RejectedExecutionException
        CountDownLatch polled = new CountDownLatch(1);
        AsyncPromise<Integer> unkept = new AsyncPromise<>();
        Thread caller = new Thread(() -> {
            try {
                rt.run((AsyncTask<Integer>) cx -> {
                    polled.countDown();
                    return unkept.poll(cx);
                });
            } catch (Throwable t) {
                fromRun.set(t);
            }
        });
        caller.start();
        softly.assertThat(polled.await(20, TimeUnit.SECONDS)).as("run()'s task polled").isTrue();
        rt.close();
        caller.join(20_000);
        softly.assertThat(caller.isAlive()).as("run() returns once the runtime shut down").isFalse();
        softly.assertThat(fromRun.get()).as("run() when the runtime shut down first").isInstanceOf(CancellationException.class);

        // run(): an interrupted caller cancels the task and gets a CompletionException
        try (AsyncRuntime rt2 = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> never = new AsyncPromise<>();
            AtomicReference<Throwable> interrupted = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    rt2.run(never);
                } catch (Throwable t) {
                    interrupted.set(t);
                }
            });
            waiter.start();
            while (rt2.liveTasks() == 0 && waiter.isAlive()) {
                Thread.onSpinWait();
            }
            waiter.interrupt();
            waiter.join(20_000);
            softly.assertThat(interrupted.get()).as("run() interrupted").isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(InterruptedException.class);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (rt2.liveTasks() != 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            softly.assertThat(rt2.liveTasks()).as("the interrupted run's task is cancelled").isZero();
        }

        // build(): a driver claimed by a runtime cannot be claimed again
        try (ReactorGroup driven = ReactorGroup.openDriven(1)) {
            AsyncRuntime first = AsyncRuntime.builder().workers(1).driveIo(driven.reactors()).build();
            expect("build() with a driver claimed already", IllegalStateException.class,
                    () -> AsyncRuntime.builder().workers(1).driveIo(driven.reactors()).build().close());
            first.close();                    // a driver serves one runtime for good (IoDriver.claim)
        }
        softly.assertAll();
    }

    @Test
    void clusterPlacementAndCloseKeepTheirJavadocPromises() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(3).build()) {
            Client client = cluster.client();
            cluster.killWorker(1);
            List<ClusterFuture<Integer>> parts = client.scatter("p", List.of(10, 20, 30));
            softly.assertThat(client.gather(parts)).as("scatter over a gone worker places elsewhere")
                    .containsExactly(10, 20, 30);
            ClusterFuture<Integer> onGone = client.scatter("g", 5, 1);
            softly.assertThat(onGone.get(20, TimeUnit.SECONDS)).as("scatter(key, v, goneWorker)").isEqualTo(5);
            cluster.retire(2).get(20, TimeUnit.SECONDS);
            List<ClusterFuture<Integer>> more = client.scatter("q", List.of(1, 2, 3));
            softly.assertThat(client.gather(more)).as("scatter after a retirement").containsExactly(1, 2, 3);
            ClusterFuture<Integer> sum = client.submit("sum", args -> (Integer) args.get(0) + (Integer) args.get(1),
                    parts.get(1), more.get(2));
            softly.assertThat(sum.get(20, TimeUnit.SECONDS)).isEqualTo(23);
        }
        LocalCluster cluster = LocalCluster.builder().workers(1).build();
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        ClusterFuture<Integer> stuck = cluster.client().submit("stuck", args -> {
            started.countDown();
            never.await();
            return 1;
        });
        started.await(20, TimeUnit.SECONDS);
        cluster.close();
        Throwable t = catchThrowable(() -> cluster.client().gather(List.of(stuck)));
        softly.assertThat(t).as("gather of a task the close ended").isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        softly.assertThat(t.getCause().getMessage()).contains("stuck");
        never.countDown();
        softly.assertAll();
    }

    @Test
    void actorsOnARefusingSchedulerEndAsTheClassJavadocSays() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(1).build();
        try (ActorSystem system = ActorSystem.create(pool)) {
            ActorRef<Box> box = system.spawn(Box::new);
            softly.assertThat(box.ask(b -> 1).get(20, TimeUnit.SECONDS)).isEqualTo(1);
            pool.close();
            CompletableFuture<Integer> asked = box.ask(b -> 2);
            Throwable t = catchThrowable(() -> asked.get(20, TimeUnit.SECONDS));
            softly.assertThat(t).as("ask once the scheduler refuses").isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ActorStoppedException.class);
            softly.assertThat(t.getCause().getCause()).as("its cause").isInstanceOf(RejectedExecutionException.class);
            Throwable later = catchThrowable(() -> box.ask(b -> 3).get(20, TimeUnit.SECONDS));
            softly.assertThat(later).as("a later ask").isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ActorStoppedException.class);
            long dead = system.stats().deadLetters();
            Throwable tell = catchThrowable(() -> box.tell(b -> b.n++));
            softly.assertThat(tell).as("a later tell does not throw").isNull();
            softly.assertThat(system.stats().deadLetters()).as("a later tell is a dead letter").isEqualTo(dead + 1);
            softly.assertThat(catchThrowable(() -> box.stop().get(20, TimeUnit.SECONDS))).as("stop() completes normally").isNull();
            softly.assertThat(box.isStopped()).isTrue();
            CompletableFuture<Void> s1 = box.stop();
            CompletableFuture<Void> s2 = box.stop();
            s1.cancel(true);
            softly.assertThat(s2.isCancelled()).as("each stop() is a new future").isFalse();
        }
        softly.assertAll();
    }

    @Test
    void selectAllAndTimeoutGiveBackWhatTheirLosersTook() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            for (int round = 0; round < 200; round++) {
                AsyncChannel<Integer> a = new AsyncChannel<>(4);
                AsyncChannel<Integer> b = new AsyncChannel<>(4);
                rt.run(a.send(1));
                rt.run(b.send(2));
                rt.run(b.send(3));
                Async.Selected<Integer> sel = rt.run(Async.select(List.of(a.receive(), b.receive())));
                softly.assertThat(sel.index() + ":" + sel.value()).as("tie: lower index wins").isEqualTo("0:1");
                softly.assertThat(rt.run(b.receive())).as("the loser's value went back, in order").isEqualTo(2);
                softly.assertThat(rt.run(b.receive())).isEqualTo(3);

                AsyncChannel<Integer> c = new AsyncChannel<>(4);
                Throwable t = catchThrowable(() -> rt.run(Async.all(List.of(c.receive(),
                        Async.<Integer>failed(new IllegalStateException("no"))))));
                softly.assertThat(t).isInstanceOf(CompletionException.class).hasCauseInstanceOf(IllegalStateException.class);
                rt.run(c.send(7));
                softly.assertThat(rt.run(c.receive())).as("all: the cancelled pending receive took nothing").isEqualTo(7);

                AsyncChannel<Integer> d = new AsyncChannel<>(4);
                Throwable timedOut = catchThrowable(() -> rt.run(Async.timeout(d.receive(), Duration.ofMillis(1))));
                softly.assertThat(timedOut).hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
                rt.run(d.send(9));
                softly.assertThat(rt.run(Async.timeout(d.receive(), Duration.ofSeconds(5))))
                        .as("a timed-out receive took nothing").isEqualTo(9);
            }
        }
        softly.assertAll();
    }

    @Test
    void aReleasedClusterFutureKeepsItsJavadocPromises() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).build()) {
            Client client = cluster.client();
            ClusterFuture<Integer> x = client.scatter("x", 20, 0);
            x.get(20, TimeUnit.SECONDS);
            CountDownLatch gate = new CountDownLatch(1);
            ClusterFuture<Integer> slow = client.submit("slow", args -> {
                gate.await();
                return 1;
            });
            ClusterFuture<Integer> dependent = client.submit("dep", args -> (Integer) args.get(0) + (Integer) args.get(1), x, slow);
            x.release();
            System.gc();
            gate.countDown();
            softly.assertThat(dependent.get(20, TimeUnit.SECONDS)).as("a task depending on it still gets the value").isEqualTo(21);
            expect("a released future as a dependency", IllegalArgumentException.class, () -> client.submit("after", args -> 1, x));
            expect("map over a released future", IllegalArgumentException.class, () -> client.map("m", args -> 1, List.of(x)));
            softly.assertThat(x.isDone()).isTrue();
            softly.assertThat(x.cancel(true)).isFalse();
        }
        softly.assertAll();
    }

    @Test
    void joinHandlePollThrowsWhatItsJavadocSays() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            JoinHandle<Integer> failing = rt.spawn(Async.failed(new java.io.IOException("reset")));
            JoinHandle<Integer> cancelled = rt.spawn(new AsyncPromise<Integer>());
            cancelled.cancel(false);
            AtomicReference<Throwable> fromFailed = new AtomicReference<>();
            AtomicReference<Throwable> fromCancelled = new AtomicReference<>();
            rt.run(cx -> {
                if (!failing.isDone()) {
                    Poll<Integer> p = failing.poll(cx);
                    if (!p.isReady()) {
                        return Poll.pending();
                    }
                }
                try {
                    failing.poll(cx);
                } catch (Throwable t) {
                    fromFailed.set(t);
                }
                try {
                    cancelled.poll(cx);
                } catch (Throwable t) {
                    fromCancelled.set(t);
                }
                return Poll.ready(null);
            });
            softly.assertThat(fromFailed.get()).as("poll of a failed task").isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(java.io.IOException.class);
            softly.assertThat(fromCancelled.get()).as("poll of a cancelled task").isInstanceOf(CancellationException.class);
        }
        softly.assertAll();
    }
}
