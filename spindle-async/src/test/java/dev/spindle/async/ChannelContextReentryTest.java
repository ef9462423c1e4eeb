/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Context} is a public interface, and a task may be polled by hand with a context of
 * the caller's own. The channel asked such a context for the waker and the budget (and the waker
 * whether it expired) while it held its lock, which is not reentrant: a context that looks at
 * the same channel (its size, say, to decide the budget) waited for itself for good, spinning.
 * The class overview says no critical section calls user code.
 *
 * <p>A runtime's own context (and its waker under a user's context) is still asked under the
 * lock, just before the value is taken: asked before it, a receive whose task's handle was
 * cancelled while its poll waited for the lock took the value into the poll whose result the
 * runtime drops, and the value was lost (the last two tests; they pass before the fix too, and
 * failed with a first version of it that asked every context before the lock: the next receive
 * waited for good).
 */
@Timeout(60)
class ChannelContextReentryTest {

    /** A context that asks the channel its size at each call, counting the calls. */
    private static Context looking(AsyncChannel<?> ch, AtomicInteger looks) {
        Waker w = new Waker() {
            @Override
            public void wake() {
                ch.size();
            }

            @Override
            public boolean expired() {
                ch.size();
                looks.incrementAndGet();
                return false;
            }
        };
        return new Context() {
            @Override
            public Waker waker() {
                ch.size();
                looks.incrementAndGet();
                return w;
            }

            @Override
            public boolean consumeBudget() {
                ch.size();
                looks.incrementAndGet();
                return true;
            }
        };
    }

    /** Runs {@code poll} on a daemon thread: before the fix it spun for good on the channel's lock. */
    private static <T> T onOwnThread(Callable<T> poll) throws Exception {
        CompletableFuture<T> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                done.complete(poll.call());
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "hand-poller");
        t.setDaemon(true);
        t.start();
        try {
            return done.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException hung) {
            throw new AssertionError("the poll waited for the channel's lock that its own context wanted", hung);
        }
    }

    @Test
    void aSendAndAReceivePolledWithAContextThatLooksAtTheChannelComplete() throws Exception {
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        AtomicInteger looks = new AtomicInteger();
        Context cx = looking(ch, looks);
        AsyncTask<Void> send = ch.send("a");
        assertThat(onOwnThread(() -> send.poll(cx).isReady())).isTrue();
        AsyncTask<String> receive = ch.receive();
        assertThat(onOwnThread(() -> receive.poll(cx).value())).isEqualTo("a");
        assertThat(looks.get()).isPositive();
    }

    @Test
    void aWaitingReceiveServedAndPolledAgainWithSuchAContextReturnsTheValue() throws Exception {
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        AtomicInteger looks = new AtomicInteger();
        Context cx = looking(ch, looks);
        AsyncTask<String> receive = ch.receive();
        assertThat(onOwnThread(() -> receive.poll(cx).isPending())).isTrue();
        AsyncTask<Void> send = ch.send("b");
        assertThat(onOwnThread(() -> send.poll(cx).isReady())).isTrue();
        assertThat(onOwnThread(() -> receive.poll(cx).value())).isEqualTo("b");   // DONE: asks expired()
    }

    @Test
    void aWaitingSendPolledAgainWithSuchAContextStaysPending() throws Exception {
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        AtomicInteger looks = new AtomicInteger();
        Context cx = looking(ch, looks);
        AsyncTask<Void> first = ch.send("a");
        assertThat(onOwnThread(() -> first.poll(cx).isReady())).isTrue();
        AsyncTask<Void> second = ch.send("b");
        assertThat(onOwnThread(() -> second.poll(cx).isPending())).isTrue();
        assertThat(onOwnThread(() -> second.poll(cx).isPending())).isTrue();   // WAITING: asks waker()
    }

    /** The channel's lock word, held here as another operation's critical section holds it. */
    private static final VarHandle LOCKED;

    static {
        try {
            LOCKED = MethodHandles.privateLookupIn(AsyncChannel.class, MethodHandles.lookup())
                    .findVarHandle(AsyncChannel.class, "locked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static boolean waitsForTheLock(Thread t) {
        return Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getMethodName().equals("lockContended"));
    }

    /** How the task polls the receive: with its own context, as the only child of all, or with a user's context around its own. */
    private enum Via { ITS_CONTEXT, ALL, A_USERS_CONTEXT }

    /** A user's context around {@code cx}: the same waker and budget. */
    private static Context around(Context cx) {
        return new Context() {
            @Override
            public Waker waker() {
                return cx.waker();
            }

            @Override
            public boolean consumeBudget() {
                return cx.consumeBudget();
            }
        };
    }

    /**
     * A task whose receive is handed a value while it waits ({@code served}), or that finds one
     * buffered, and is polled while another thread holds the channel's lock; that thread cancels
     * the task's handle once the poll waits for the lock, then lets the lock go. The value must
     * reach the next receiver.
     */
    private static void cancelledWhileItsPollWaitsForTheLock(boolean served, Via via) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            AsyncTask<Integer> receive = ch.receive();
            CompletableFuture<JoinHandle<?>> self = new CompletableFuture<>();
            class PolledWhileTheLockIsHeld implements AsyncTask<Integer>, Cancellable {
                @Override
                public Poll<Integer> poll(Context taskCx) {
                    Context cx = via == Via.A_USERS_CONTEXT ? around(taskCx) : taskCx;
                    if (served) {
                        assertThat(receive.poll(cx).isPending()).as("the receive waits").isTrue();
                    }
                    assertThat(ch.send(5).poll(new HandContext()).isReady()).as("sent").isTrue();
                    Thread poller = Thread.currentThread();
                    assertThat(LOCKED.compareAndSet(ch, 0, 1)).isTrue();
                    Thread holder = new Thread(() -> {
                        while (!waitsForTheLock(poller)) {
                            Thread.onSpinWait();
                        }
                        self.join().cancel(false);
                        LOCKED.setRelease(ch, 0);
                    }, "lock-holder");
                    holder.setDaemon(true);
                    holder.start();
                    return receive.poll(cx);
                }

                @Override
                public void cancel() {
                    Async.cancel(receive);
                }
            }
            AsyncTask<?> task = via == Via.ALL ? Async.all(List.of(new PolledWhileTheLockIsHeld())) : new PolledWhileTheLockIsHeld();
            JoinHandle<?> h = rt.spawn(task);
            self.complete(h);
            assertThat(rt.spawn(ch.receive()).get(10, SECONDS)).as("the value").isEqualTo(5);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aServedReceiveCancelledWhileItsPollWaitsForTheLockPassesTheValueOn(Via via) throws Exception {
        cancelledWhileItsPollWaitsForTheLock(true, via);
    }

    @ParameterizedTest
    @EnumSource(Via.class)
    void aReceiveBegunWhileItsPollWaitsForTheLockAndCancelledLeavesTheValue(Via via) throws Exception {
        cancelledWhileItsPollWaitsForTheLock(false, via);
    }
}
