/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Exact accounting of values and permits that combinators drop unreceived and give back
 * ({@link WaitingOp#giveBackUnreceived}), on a runtime of two workers, over many rounds: failed
 * {@code all}s, selections and anys, selections and lists a function was given, bare receives
 * and acquires whose handles are cancelled while they run, and a shutdown that cancels what is
 * left. A value given back twice, or given back after a function received it, is received twice;
 * one lost is found neither received nor in the channel; a permit given back twice shows as more
 * permits than the semaphore was made with, one lost as fewer (or tasks waiting for good).
 * Nothing here waits on time but the bound of a round, which only a lost value or permit reaches.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UnreceivedGiveBackStressTest {

    private static final int ROUNDS = 200;
    private static final int VALUES = 12;
    private static final int CONSUMERS = 12;
    private static final int PERMITS = 2;
    private static final int ACQUIRERS = 14;

    /** Fails on its second poll, having woken its task on the first: siblings run in between. */
    private static <T> AsyncTask<T> failsLater() {
        return new AsyncTask<>() {
            private int polls;

            @Override
            public Poll<T> poll(Context cx) {
                if (polls++ == 0) {
                    cx.waker().wake();
                    return Poll.pending();
                }
                throw new IllegalStateException("test: fails on its second poll");
            }
        };
    }

    @Test
    void everyValueSentIsReceivedOnceOrStillInTheChannel() throws Exception {
        Random random = new Random(72);
        for (int round = 0; round < ROUNDS; round++) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1 + random.nextInt(3));
            AtomicIntegerArray received = new AtomicIntegerArray(VALUES);
            List<JoinHandle<?>> consumers = new ArrayList<>();
            List<JoinHandle<Void>> sends = new ArrayList<>();
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                for (int i = 0; i < CONSUMERS; i++) {
                    int kind = random.nextInt(10);
                    JoinHandle<?> h = rt.spawn(consumer(kind, ch, received));
                    if (kind == 8 || kind == 9) {      // a bare receive, a selection: its handle has the value
                        h.toCompletableFuture().thenAccept(v -> receivedFromHandle(v, received));
                    }
                    consumers.add(h);
                    if (i == CONSUMERS / 2) {
                        for (int v = 0; v < VALUES; v++) {
                            sends.add(rt.spawn(ch.send(v)));
                        }
                    }
                }
                for (JoinHandle<?> h : consumers) {
                    if (random.nextInt(4) == 0) {
                        h.cancel(false);           // racing its poll on a worker
                    }
                }
                // every value accepted: once the consumers are done, receives of our own take
                // what the sends still wait to put in (more than one each where values given
                // back hold the channel beyond its capacity)
                List<? extends JoinHandle<?>> ours = consumers;
                while (!all(sends).isDone()) {
                    CompletableFuture.anyOf(all(sends), all(ours)).get(60, TimeUnit.SECONDS);
                    List<JoinHandle<Void>> more = new ArrayList<>();
                    for (JoinHandle<Void> s : sends) {
                        if (!s.isDone()) {
                            more.add(rt.spawn(Async.map(ch.receive(), v -> record(v, received))));
                        }
                    }
                    ours = more;
                }
            }                                      // shut down: pending receives cancelled, every drop done
            ch.close();
            int[] inChannel = new int[VALUES];
            Poll<Integer> p;
            while ((p = receiveOrClosed(ch)) != null) {
                assertThat(p.isReady()).as("round %d: a value left in flight", round).isTrue();
                inChannel[p.value()]++;
            }
            for (int v = 0; v < VALUES; v++) {
                assertThat(received.get(v) + inChannel[v])
                        .as("round %d: value %d received %d times, %d in the channel",
                                round, v, received.get(v), inChannel[v])
                        .isEqualTo(1);
            }
        }
    }

    @Test
    void aCloseRacingTheGiveBacksLosesNoAcceptedValueAndStrandsNoReceiver() throws Exception {
        // the channel is closed while the consumers run: a value given back after it ran empty
        // is received by a later receive (or is still there at the end), and no receive waits
        // for good. A send the close failed was never accepted: its value is nowhere
        Random random = new Random(7200);
        for (int round = 0; round < ROUNDS; round++) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1 + random.nextInt(3));
            AtomicIntegerArray received = new AtomicIntegerArray(VALUES);
            List<JoinHandle<?>> consumers = new ArrayList<>();
            List<JoinHandle<Void>> sends = new ArrayList<>();
            int closeAt = random.nextInt(CONSUMERS);
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                for (int i = 0; i < CONSUMERS; i++) {
                    int kind = random.nextInt(10);
                    JoinHandle<?> h = rt.spawn(consumer(kind, ch, received));
                    if (kind == 8 || kind == 9) {
                        h.toCompletableFuture().thenAccept(v -> receivedFromHandle(v, received));
                    }
                    consumers.add(h);
                    if (i == CONSUMERS / 2) {
                        for (int v = 0; v < VALUES; v++) {
                            sends.add(rt.spawn(ch.send(v)));
                        }
                    }
                    if (i == closeAt) {            // on a worker, racing the receives, sends and give-backs
                        consumers.add(rt.spawn(cx -> {
                            ch.close();
                            return Poll.ready(null);
                        }));
                    }
                }
                all(sends).get(60, TimeUnit.SECONDS);
                all(consumers).get(60, TimeUnit.SECONDS);   // reached only if a receive waits for good
            }
            int[] inChannel = new int[VALUES];
            Poll<Integer> p;
            while ((p = receiveOrClosed(ch)) != null) {
                assertThat(p.isReady()).as("round %d: a value left in flight", round).isTrue();
                inChannel[p.value()]++;
            }
            for (int v = 0; v < VALUES; v++) {
                boolean accepted = !sends.get(v).toCompletableFuture().isCompletedExceptionally();
                assertThat(received.get(v) + inChannel[v])
                        .as("round %d: value %d (accepted: %s) received %d times, %d in the channel",
                                round, v, accepted, received.get(v), inChannel[v])
                        .isEqualTo(accepted ? 1 : 0);
            }
        }
    }

    private static Poll<Integer> receiveOrClosed(AsyncChannel<Integer> ch) {
        try {
            return ch.receive().poll(new AsyncCombinatorTest.HandContext());
        } catch (ChannelClosedException drained) {
            return null;
        }
    }

    private static Void record(Integer v, AtomicIntegerArray received) {
        if (v != null && v >= 0) {
            received.incrementAndGet(v);
        }
        return null;
    }

    private static void receivedFromHandle(Object v, AtomicIntegerArray received) {
        if (v instanceof Async.Selected<?> s) {
            receivedFromHandle(s.value(), received);
        } else if (v instanceof List<?> l) {
            l.forEach(x -> receivedFromHandle(x, received));
        } else {
            record((Integer) v, received);
        }
    }

    private static AsyncTask<?> consumer(int kind, AsyncChannel<Integer> ch, AtomicIntegerArray received) {
        switch (kind) {
            case 0:
                return Async.map(ch.receive(), v -> record(v, received));
            case 1:
                return Async.map(Async.all(List.of(ch.receive(), ch.receive())), l -> {
                    l.forEach(v -> record(v, received));
                    return null;
                });
            case 2:                                // fails: what its receives took goes back
                return Async.all(List.<AsyncTask<?>>of(ch.receive(), ch.receive(), failsLater()));
            case 3:
                return Async.map(Async.select(List.of(ch.receive(), ch.receive())), s -> record(s.value(), received));
            case 4:
                return Async.map(Async.any(List.of(ch.receive(), Async.timeout(ch.receive(), Duration.ofMinutes(5)))),
                        v -> record(v, received));
            case 5:                                // the map received the selection: its value is the map's
                return Async.all(List.<AsyncTask<?>>of(
                        Async.map(Async.select(List.of(ch.receive(), new AsyncPromise<Integer>())), s -> {
                            record(s.value(), received);
                            return s;
                        }),
                        failsLater()));
            case 6:                                // so is the list's value
                return Async.all(List.<AsyncTask<?>>of(
                        Async.map(Async.all(List.of(ch.receive())), l -> {
                            record(l.get(0), received);
                            return l;
                        }),
                        failsLater()));
            case 7:
                return Async.all(List.<AsyncTask<?>>of(
                        Async.recover(ch.receive(), e -> -1),
                        Async.then(Async.ready(0), x -> ch.receive()),
                        failsLater()));
            case 8:
                return ch.receive();
            default:
                return Async.select(List.of(Async.all(List.of(ch.receive(), ch.receive())),
                        Async.map(ch.receive(), List::of)));
        }
    }

    /** A message that is one object wherever it is made, as an enum constant is. */
    private enum Colour { RED, GREEN }

    /** One object sent several times, and also the value of tasks and handles beside the channel. */
    private static final Object SHARED = new Object() {
        @Override
        public String toString() {
            return "SHARED";
        }
    };

    /** The messages of {@link #sharedObjectsAreCountedAsOftenAsTheyWereSent}, each sent twice. */
    private static final Object[] SHARED_VALUES = {Colour.RED, Colour.GREEN, Boolean.TRUE, Boolean.FALSE, SHARED};
    private static final int SHARED_ROUNDS = 60;
    private static final int SENDS_EACH = 2;

    @Test
    void sharedObjectsAreCountedAsOftenAsTheyWereSent() throws Exception {
        // the messages are objects that other tasks hold too (a ready task, a handle's value,
        // the first task of a then whose second receives): a runtime that told a receive's value
        // from another task's by identity took one for the other, and lost the message or gave
        // it back after it was received. Counted per object: each is received, or left in the
        // channel, exactly as often as it was sent. Chains deeper than FLATTEN_DEPTH (run as a
        // pipeline, or nested timeouts) are among the consumers
        Random random = new Random(7878);
        for (int round = 0; round < SHARED_ROUNDS; round++) {
            AsyncChannel<Object> ch = new AsyncChannel<>(1 + random.nextInt(3));
            AtomicIntegerArray received = new AtomicIntegerArray(SHARED_VALUES.length);
            List<JoinHandle<?>> consumers = new ArrayList<>();
            List<JoinHandle<Void>> sends = new ArrayList<>();
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                for (int i = 0; i < CONSUMERS; i++) {
                    int kind = random.nextInt(8);
                    Object also = SHARED_VALUES[random.nextInt(SHARED_VALUES.length)];
                    JoinHandle<?> h = rt.spawn(sharedConsumer(kind, ch, also, rt, received));
                    if (kind >= 5) {               // bare, or a selection: its handle has the value
                        h.toCompletableFuture().thenAccept(v -> receivedShared(v, received));
                    }
                    consumers.add(h);
                    if (i == CONSUMERS / 2) {
                        for (int n = 0; n < SENDS_EACH; n++) {
                            for (Object v : SHARED_VALUES) {
                                sends.add(rt.spawn(ch.send(v)));
                            }
                        }
                    }
                }
                for (JoinHandle<?> h : consumers) {
                    if (random.nextInt(4) == 0) {
                        h.cancel(false);           // racing its poll on a worker
                    }
                }
                List<? extends JoinHandle<?>> ours = consumers;
                while (!all(sends).isDone()) {
                    CompletableFuture.anyOf(all(sends), all(ours)).get(60, TimeUnit.SECONDS);
                    List<JoinHandle<Void>> more = new ArrayList<>();
                    for (JoinHandle<Void> s : sends) {
                        if (!s.isDone()) {
                            more.add(rt.spawn(Async.map(ch.receive(), v -> recordShared(v, received))));
                        }
                    }
                    ours = more;
                }
            }
            ch.close();
            int[] inChannel = new int[SHARED_VALUES.length];
            for (;;) {
                Poll<Object> p;
                try {
                    p = ch.receive().poll(new AsyncCombinatorTest.HandContext());
                } catch (ChannelClosedException drained) {
                    break;
                }
                assertThat(p.isReady()).as("round %d: a value left in flight", round).isTrue();
                inChannel[sharedIndex(p.value())]++;
            }
            for (int v = 0; v < SHARED_VALUES.length; v++) {
                assertThat(received.get(v) + inChannel[v])
                        .as("round %d: %s received %d times, %d in the channel",
                                round, SHARED_VALUES[v], received.get(v), inChannel[v])
                        .isEqualTo(SENDS_EACH);
            }
        }
    }

    private static int sharedIndex(Object v) {
        for (int i = 0; i < SHARED_VALUES.length; i++) {
            if (SHARED_VALUES[i] == v) {
                return i;
            }
        }
        throw new AssertionError("not a message of the test: " + v);
    }

    private static Void recordShared(Object v, AtomicIntegerArray received) {
        received.incrementAndGet(sharedIndex(v));
        return null;
    }

    private static void receivedShared(Object v, AtomicIntegerArray received) {
        if (v instanceof Async.Selected<?> s) {
            receivedShared(s.value(), received);
        } else if (v instanceof List<?> l) {
            l.forEach(x -> receivedShared(x, received));
        } else if (v != NOT_A_MESSAGE) {
            recordShared(v, received);
        }
    }

    /** A loser's value that is no message (a select's other branch never wins with it). */
    private static final Object NOT_A_MESSAGE = new Object();

    private static <T> AsyncTask<T> deeperThanTheWalk(AsyncTask<T> task) {
        for (int i = 0; i <= Async.FLATTEN_DEPTH + 2; i++) {
            task = Async.timeout(task, Duration.ofMinutes(5));
        }
        return task;
    }

    private static <T> AsyncTask<T> runAsAPipeline(AsyncTask<T> task) {
        for (int i = 0; i <= Async.FLATTEN_DEPTH + 2; i++) {
            task = Async.recover(task, e -> {
                throw new IllegalStateException("test: passed on", e);
            });
        }
        return task;
    }

    private static AsyncTask<?> sharedConsumer(int kind, AsyncChannel<Object> ch, Object also, AsyncRuntime rt,
            AtomicIntegerArray received) {
        switch (kind) {
            case 0:
                return Async.map(ch.receive(), v -> recordShared(v, received));
            case 1:                                // the then's second receives what its first had
                return Async.all(List.<AsyncTask<?>>of(Async.then(Async.ready(also), x -> ch.receive()), failsLater()));
            case 2:                                // so, as one of a chain run as a pipeline
                return Async.all(List.<AsyncTask<?>>of(
                        runAsAPipeline(Async.then(Async.ready(also), x -> ch.receive())), failsLater()));
            case 3:
                return Async.all(List.<AsyncTask<?>>of(deeperThanTheWalk(ch.receive()), failsLater()));
            case 4:
                return Async.map(Async.any(List.of(Async.then(Async.ready(also), x -> ch.receive()),
                        Async.timeout(ch.receive(), Duration.ofMinutes(5)))), v -> recordShared(v, received));
            case 5:                                // the first is a handle that holds the same object
                return Async.then(rt.spawn(Async.ready(also)), x -> ch.receive());
            case 6:
                return Async.select(List.of(Async.then(Async.ready(also), x -> ch.receive()),
                        Async.then(new AsyncPromise<Object>(), x -> Async.ready(NOT_A_MESSAGE))));
            default:
                return ch.receive();
        }
    }

    @Test
    void everyPermitIsReleasedOnceAndNeverMoreThanTheSemaphoreHad() throws Exception {
        Random random = new Random(7272);
        AtomicInteger most = new AtomicInteger();
        for (int round = 0; round < ROUNDS; round++) {
            AsyncSemaphore sem = new AsyncSemaphore(PERMITS);
            Runnable release = () -> {
                sem.release();
                most.accumulateAndGet(sem.availablePermits(), Math::max);
            };
            List<JoinHandle<?>> acquirers = new ArrayList<>();
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
                for (int i = 0; i < ACQUIRERS; i++) {
                    int kind = random.nextInt(9);
                    JoinHandle<?> h = rt.spawn(acquirer(kind, sem, release));
                    if (kind >= 7) {               // a bare acquire: its handle's awaiter holds the permit
                        h.toCompletableFuture().thenRun(release);
                    }
                    acquirers.add(h);
                }
                for (JoinHandle<?> h : acquirers) {
                    if (random.nextInt(4) == 0) {
                        h.cancel(false);
                    }
                }
                // a lost permit leaves acquires waiting for good: this bound is then reached
                CompletableFuture<Void> done = all(acquirers);
                done.handle((v, e) -> null).get(60, TimeUnit.SECONDS);
            }
            assertThat(most.get()).as("round %d: never more permits than made with", round).isLessThanOrEqualTo(PERMITS);
            assertThat(sem.availablePermits()).as("round %d: every permit back", round).isEqualTo(PERMITS);
        }
    }

    private static AsyncTask<?> acquirer(int kind, AsyncSemaphore sem, Runnable release) {
        switch (kind) {
            case 0:
                return Async.then(sem.acquire(), x -> {
                    release.run();
                    return Async.ready(0);
                });
            case 1:
                return Async.map(Async.select(List.of(sem.acquire(), sem.acquire())), s -> {
                    release.run();
                    return 0;
                });
            case 2:                                // fails: its permits go back
                return Async.all(List.<AsyncTask<?>>of(sem.acquire(), sem.acquire(), failsLater()));
            case 3:
                return Async.map(Async.any(List.of(sem.acquire(), Async.timeout(sem.acquire(), Duration.ofMinutes(5)))),
                        v -> {
                            release.run();
                            return 0;
                        });
            case 4:                                // the map released the selection's permit: not again
                return Async.all(List.<AsyncTask<?>>of(
                        Async.map(Async.select(List.of(sem.acquire(), new AsyncPromise<Void>())), s -> {
                            release.run();
                            return s;
                        }),
                        failsLater()));
            case 5:                                // nor the list's
                return Async.all(List.<AsyncTask<?>>of(
                        Async.map(Async.all(List.of(sem.acquire())), l -> {
                            release.run();
                            return l;
                        }),
                        failsLater()));
            case 6:
                return Async.all(List.<AsyncTask<?>>of(
                        Async.recover(sem.acquire(), e -> null),
                        Async.then(Async.ready(0), x -> sem.acquire()),
                        failsLater()));
            case 7:
                return sem.acquire();
            default:
                return Async.timeout(sem.acquire(), Duration.ofMinutes(5));
        }
    }

    private static CompletableFuture<Void> all(List<? extends JoinHandle<?>> handles) {
        return CompletableFuture.allOf(handles.stream()
                .map(h -> h.toCompletableFuture().handle((v, e) -> null))
                .toArray(CompletableFuture[]::new));
    }
}
