/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static dev.spindle.async.WakerSemanticsTest.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.assertj.core.api.SoftAssertions;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Senders, receivers and semaphore users on a runtime while their handles are cancelled at
 * random moments (and the runtime finally closes on those still waiting): every value whose send
 * completed is received exactly once or is still in the channel, no value is received twice, the
 * semaphore never admits more than its permits, and every permit not taken away by a task
 * cancelled while holding it is back at the end.
 */
class AbandonedTaskPropertiesTest {

    private static final int SENDERS = 4;
    private static final int PER_SENDER = 150;
    private static final int RECEIVERS = 4;
    private static final int ACQUIRERS = 4;
    private static final int CANCELS = 40;

    @Property(tries = 10)
    void randomCancelsLoseNoValueAndNoPermit(
            @ForAll AsyncPolicy policy,
            @ForAll @IntRange(min = 1, max = 3) int workers,
            @ForAll @IntRange(min = 1, max = 4) int capacity,
            @ForAll @IntRange(min = 1, max = 3) int permits,
            @ForAll long seed) {
        assertTimeoutPreemptively(Duration.ofSeconds(4 * WAIT_S),
                () -> check(policy, workers, capacity, permits, new Random(seed)));
    }

    private static void check(AsyncPolicy policy, int workers, int capacity, int permits, Random rnd)
            throws Exception {
        AsyncChannel<Integer> ch = new AsyncChannel<>(capacity);
        AsyncSemaphore sem = new AsyncSemaphore(permits);
        Map<Integer, AtomicInteger> received = new ConcurrentHashMap<>();
        Set<Integer> sent = ConcurrentHashMap.newKeySet();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overAdmitted = new AtomicInteger();
        List<JoinHandle<Void>> senders = new ArrayList<>();
        List<JoinHandle<Void>> receivers = new ArrayList<>();
        List<JoinHandle<Void>> acquirers = new ArrayList<>();
        List<AtomicBoolean> holding = new ArrayList<>();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(policy)
                .name("abandon-prop").build()) {
            for (int s = 0; s < SENDERS; s++) {
                senders.add(rt.spawn(sender(ch, s * PER_SENDER, (s + 1) * PER_SENDER, sent)));
            }
            for (int r = 0; r < RECEIVERS; r++) {
                receivers.add(rt.spawn(receiver(ch, received)));
            }
            for (int a = 0; a < ACQUIRERS; a++) {
                acquirers.add(rt.spawn(acquirer(sem, permits, inside, overAdmitted, holder(holding))));
            }
            for (int k = 0; k < CANCELS; k++) {
                LockSupport.parkNanos(rnd.nextInt(200_000)); // a random moment, not a timing check
                switch (rnd.nextInt(3)) {
                    case 0 -> senders.get(rnd.nextInt(senders.size())).cancel(false);
                    case 1 -> {
                        receivers.get(rnd.nextInt(receivers.size())).cancel(false);
                        receivers.add(rt.spawn(receiver(ch, received)));
                    }
                    default -> {
                        acquirers.get(rnd.nextInt(acquirers.size())).cancel(false);
                        acquirers.add(rt.spawn(
                                acquirer(sem, permits, inside, overAdmitted, holder(holding))));
                    }
                }
            }
            for (JoinHandle<Void> s : senders) {
                if (!s.isCancelled()) {
                    s.get(WAIT_S, TimeUnit.SECONDS);
                }
            }
            ch.close();                        // live receivers drain the buffer, then stop
            for (JoinHandle<Void> r : receivers) {
                await(r::isDone, "a receiver to stop");
            }
        }                                      // closing cancels the acquirers still waiting
        List<Integer> left = TestExecutor.run(drain(ch));
        for (Integer v : left) {
            received.computeIfAbsent(v, x -> new AtomicInteger()).incrementAndGet();
        }
        SoftAssertions.assertSoftly(soft -> {
            received.forEach((v, n) -> soft.assertThat(n.get()).as("times %d was received", v).isEqualTo(1));
            soft.assertThat(received.keySet()).as("values received or left").containsAll(sent);
            soft.assertThat(overAdmitted.get()).as("acquires admitted beyond the permits").isZero();
            long dropped = holding.stream().filter(AtomicBoolean::get).count();
            soft.assertThat(sem.availablePermits())
                    .as("permits after everything was cancelled, %d dropped by holders", dropped)
                    .isEqualTo(permits - (int) dropped);
        });
    }

    private static AtomicBoolean holder(List<AtomicBoolean> all) {
        AtomicBoolean b = new AtomicBoolean();
        all.add(b);
        return b;
    }

    private static AsyncTask<Void> sender(AsyncChannel<Integer> ch, int from, int to, Set<Integer> sent) {
        return Async.loop(from, (Integer i) -> i == to
                ? Async.ready(Async.Step.<Integer, Void>done(null))
                : Async.map(ch.send(i), x -> {
                    sent.add(i);
                    return Async.Step.<Integer, Void>next(i + 1);
                }));
    }

    private static AsyncTask<Void> receiver(AsyncChannel<Integer> ch, Map<Integer, AtomicInteger> got) {
        return receiveUntilClosed(ch,
                v -> got.computeIfAbsent(v, y -> new AtomicInteger()).incrementAndGet());
    }

    /** The channel's remaining values, read after the runtime closed. */
    private static AsyncTask<List<Integer>> drain(AsyncChannel<Integer> ch) {
        List<Integer> out = new ArrayList<>();
        return Async.map(receiveUntilClosed(ch, out::add), x -> out);
    }

    /** Receives until the channel is closed; a value is handled in the poll that receives it. */
    private static AsyncTask<Void> receiveUntilClosed(
            AsyncChannel<Integer> ch, Consumer<Integer> onValue) {
        return Async.loop(null, (Object x) -> Async.recover(
                Async.map(ch.receive(), (Integer v) -> {
                    onValue.accept(v);
                    return Async.Step.<Object, Void>next(null);
                }),
                e -> {
                    if (e instanceof ChannelClosedException) {
                        return Async.Step.done(null);
                    }
                    throw Async.unchecked(e);
                }));
    }

    /**
     * Acquires, holds the permit across a yield (so other acquires wait), releases, and again,
     * forever. {@code holding} is set while the task holds its permit: a task cancelled then has
     * taken the permit with it, as its owner dropped it.
     */
    private static AsyncTask<Void> acquirer(AsyncSemaphore sem, int permits, AtomicInteger inside,
            AtomicInteger overAdmitted, AtomicBoolean holding) {
        return Async.loop(null, (Object x) -> Async.then(sem.acquire(), y -> {
            holding.set(true);
            if (inside.incrementAndGet() > permits) {
                overAdmitted.incrementAndGet();
            }
            return Async.map(Async.yieldNow(), z -> {
                inside.decrementAndGet();
                holding.set(false);
                sem.release();
                return Async.Step.<Object, Void>next(null);
            });
        }));
    }
}
