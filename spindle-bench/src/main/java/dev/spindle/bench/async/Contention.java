/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncSemaphore;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.JoinHandle;
import dev.spindle.async.Poll;
import dev.spindle.bench.workload.WrongResultException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Many tasks competing for a would-block resource: {@code tasks} tasks, spawned from outside at
 * once, each acquire a resource with {@code permits} permits {@code acquires} times; holding
 * it, a task does a little work ({@code work} rounds of a xorshift) and yields once (so the hold
 * spans a trip through the scheduler, as a real critical section around I/O does), then
 * releases and goes straight on to its next acquire.
 *
 * <p>Two resources:
 *
 * <ul>
 *   <li>{@link Resource#SEMAPHORE}: {@link AsyncSemaphore}, strictly FIFO, handing the permit to
 *       the oldest waiter; each acquire that waits is woken exactly once.</li>
 *   <li>{@link Resource#HERD}: {@link HerdLock}, readiness semantics: a release wakes every
 *       waiter and they race, the losers waiting again; unlucky tasks are woken many times.</li>
 *   <li>{@link Resource#BARGE}: {@link HerdLock} waking its waiters newest first (a
 *       barging lock with a waiter stack). Here a task, after each release, yields once more before its next
 *       acquire, so it does not simply take back the permit it freed: each release starts a race
 *       that the scheduler's poll order decides. Polled in wake order, the newest waiter wins and
 *       the oldest lose again and again, on any number of workers: luck is uneven by
 *       construction, the setting the HYBRID scheduler's most-woken-first order is meant for. The
 *       tasks arrive in {@link #BARGE_WAVES} waves, wave <i>k</i> once the earlier waves have
 *       made a share ({@link #BARGE_PACE}) of their acquires, so old waiters and new arrivals compete
 *       (completion times then measure the wait since arrival, which the order decides, not just
 *       the length of the run); the tasks of a wave start together ({@link StartGate}: the last
 *       to arrive wakes the others), as otherwise the first spawned could finish before the
 *       next is picked up.</li>
 * </ul>
 *
 * <p>Recorded per task: its wake count ({@link JoinHandle#wakeCount()}: every wake-up the
 * runtime counted, including the one self-wake of each hold's yield), and its completion time,
 * from just before its {@code spawn} to its last poll ({@code System.nanoTime}). Throughput is
 * tasks per second from the first spawn to the last completion. Checked: every task completed,
 * every task made exactly {@code acquires} acquisitions ({@code tasks * acquires} in all), no more
 * than {@code permits} tasks ever held the resource at once, and (herd and barging locks) the resource ends
 * with every permit free and no waiter left.
 */
public final class Contention {

    /** The contended resource. */
    public enum Resource {
        SEMAPHORE("semaphore"), HERD("herd"), BARGE("barge");

        private final String id;

        Resource(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }
    }

    public static final int FULL_TASKS = 1_000;
    public static final int FULL_PERMITS = 4;
    public static final int FULL_ACQUIRES = 20;
    public static final int FULL_WORK = 200;
    /** The herd resource wakes every waiter on each release: fewer tasks keep it quadratic cost small. */
    public static final int FULL_HERD_TASKS = 200;
    public static final int FULL_HERD_ACQUIRES = 10;
    /** The barging lock also wakes every waiter on each release: sized as the herd. */
    public static final int FULL_BARGE_TASKS = 200;
    public static final int FULL_BARGE_ACQUIRES = 10;
    /**
     * {@code contention-barge}: the tasks arrive in this many waves of equal size (system
     * property {@code spindle.bench.barge.waves}, default 8; 1 = all at once)...
     */
    static final int BARGE_WAVES = Integer.getInteger("spindle.bench.barge.waves", 8);
    /**
     * ...wave k once the waves before it have made this share of their acquires (system property
     * {@code spindle.bench.barge.pace}, default 0.5).
     */
    static final double BARGE_PACE = Double.parseDouble(System.getProperty("spindle.bench.barge.pace", "0.5"));

    private final Resource resource;
    private final int tasks;
    private final int permits;
    private final int acquires;
    private final int work;
    /** How long a run may wait for its waves to start ({@link AsyncWorkload#TIMEOUT_SECONDS}; tests shorten it). */
    private long timeoutNanos = TimeUnit.SECONDS.toNanos(AsyncWorkload.TIMEOUT_SECONDS);

    public Contention(Resource resource, int tasks, int permits, int acquires, int work) {
        if (tasks < 1 || permits < 1 || acquires < 1 || work < 0) {
            throw new IllegalArgumentException("tasks, permits, acquires must be >= 1 and work >= 0");
        }
        this.resource = resource;
        this.tasks = tasks;
        this.permits = permits;
        this.acquires = acquires;
        this.work = work;
    }

    /** For tests: the limit of the wait for the waves to start, instead of {@link AsyncWorkload#TIMEOUT_SECONDS}. */
    Contention timeout(Duration limit) {
        this.timeoutNanos = limit.toNanos();
        return this;
    }

    /** {@code contention}, {@code contention-herd} or {@code contention-barge}. */
    public String name() {
        return resource == Resource.SEMAPHORE ? "contention" : "contention-" + resource.id();
    }

    public Resource resource() {
        return resource;
    }

    public int tasks() {
        return tasks;
    }

    public String describe() {
        String what;
        switch (resource) {
            case SEMAPHORE:
                what = "FIFO AsyncSemaphore";
                break;
            case HERD:
                what = "wake-all readiness lock";
                break;
            default:
                what = "barging lock waking all waiters newest first";
                break;
        }
        return String.format(Locale.ROOT, "%s: %,d tasks x %d acquires of a %s with %d permits, %d work rounds + 1 yield while holding%s",
                name(), tasks, acquires, what, permits, work, resource == Resource.BARGE ? " + 1 after releasing" : "");
    }

    /**
     * What one run measured.
     *
     * @param elapsedNanos first spawn to last completion
     * @param wakes each task's wake count, sorted ascending
     * @param completionNanos each task's spawn-to-completion time, sorted ascending
     */
    public record Result(int tasks, long elapsedNanos, long[] wakes, long[] completionNanos) {

        /** Tasks per second. */
        public double throughput() {
            return tasks / (elapsedNanos / 1e9);
        }

        public long wakesAt(double q) {
            return at(wakes, q);
        }

        public long completionNanosAt(double q) {
            return at(completionNanos, q);
        }

        /** The value at quantile {@code q} (nearest rank) of a sorted array. */
        static long at(long[] sorted, double q) {
            int i = (int) Math.ceil(q * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }
    }

    private interface Lock {
        AsyncTask<Void> acquire();

        void release();
    }

    private static Lock lock(java.util.function.Supplier<AsyncTask<Void>> acquire, Runnable release) {
        return new Lock() {
            public AsyncTask<Void> acquire() {
                return acquire.get();
            }

            public void release() {
                release.run();
            }
        };
    }

    /** How many tasks waves 0..k hold (0 for k = -1). */
    private int waveEnd(int k, int waves) {
        return (int) ((long) tasks * (k + 1) / waves);
    }

    /** One checked run on {@code rt}. */
    public Result run(AsyncRuntime rt) {
        Lock lock;
        HerdLock herd = null;
        if (resource == Resource.SEMAPHORE) {
            AsyncSemaphore s = new AsyncSemaphore(permits);
            lock = lock(s::acquire, s::release);
        } else {
            HerdLock h = new HerdLock(permits, resource == Resource.BARGE);
            herd = h;
            lock = lock(h::acquire, h::release);
        }
        boolean thinkAfterRelease = resource == Resource.BARGE;
        int waves = resource == Resource.BARGE ? Math.max(1, Math.min(BARGE_WAVES, tasks)) : 1;
        StartGate[] gates = new StartGate[waves];
        for (int k = 0; k < waves; k++) {
            gates[k] = resource == Resource.BARGE ? new StartGate(waveEnd(k, waves) - waveEnd(k - 1, waves)) : null;
        }
        int[] perTask = new int[tasks];
        AtomicInteger held = new AtomicInteger();
        AtomicInteger maxHeld = new AtomicInteger();
        AtomicLong acquisitions = new AtomicLong();
        AtomicInteger remaining = new AtomicInteger(tasks);
        CompletableFuture<Long> done = new CompletableFuture<>();
        long[] spawnedAt = new long[tasks];
        long[] finishedAt = new long[tasks];
        @SuppressWarnings("unchecked")
        JoinHandle<Long>[] handles = new JoinHandle[tasks];

        final class Competitor implements AsyncTask<Long> {
            private final int id;
            private final StartGate gate;
            private int count;
            private AsyncTask<Void> pending;
            private boolean holding;
            private boolean arrived;
            private long sink = 1;

            Competitor(int id, StartGate gate) {
                this.id = id;
                this.gate = gate;
            }

            @Override
            public Poll<Long> poll(Context cx) {
                if (gate != null) {
                    boolean first = !arrived;
                    arrived = true;
                    if (!gate.pass(first, cx.waker())) {
                        return Poll.pending();
                    }
                }
                for (;;) {
                    if (holding) {                     // back from the yield while holding
                        held.decrementAndGet();
                        holding = false;
                        lock.release();
                        count++;
                        if (thinkAfterRelease && count < acquires) {
                            cx.waker().wake();         // yield once before the next acquire
                            return Poll.pending();
                        }
                    }
                    if (count == acquires) {
                        finishedAt[id] = System.nanoTime();
                        if (remaining.decrementAndGet() == 0) {
                            done.complete(acquisitions.get());
                        }
                        return Poll.ready(sink);
                    }
                    if (pending == null) {
                        pending = lock.acquire();
                    }
                    if (pending.poll(cx).isPending()) {
                        return Poll.pending();
                    }
                    pending = null;
                    int h = held.incrementAndGet();
                    if (h > maxHeld.get()) {
                        maxHeld.accumulateAndGet(h, Math::max);
                    }
                    acquisitions.incrementAndGet();
                    perTask[id]++;
                    long x = sink;
                    for (int i = 0; i < work; i++) {
                        x ^= x << 13;
                        x ^= x >>> 7;
                        x ^= x << 17;
                    }
                    sink = x;
                    holding = true;
                    cx.waker().wake();                 // yield while holding
                    return Poll.pending();
                }
            }
        }

        long t0 = System.nanoTime();
        for (int k = 0, i = 0; k < waves; k++) {
            // Wave k arrives once the earlier waves have made BARGE_PACE of their acquires. Bounded
            // as every wait of a run is: a task of an earlier wave lost or never run holds its whole
            // wave at the gate, and the run (spindle bench async with it) waited here for good.
            long due = (long) Math.floor(BARGE_PACE * waveEnd(k - 1, waves) * acquires);
            while (acquisitions.get() < due) {
                if (System.nanoTime() - t0 - timeoutNanos > 0) {
                    throw new IllegalStateException(String.format(Locale.ROOT,
                            "%s: wave %d of %d not started after %.1f s: the %d tasks before it made %d of the %d"
                                    + " acquisitions it waits for (hung?)", name(), k + 1, waves, timeoutNanos / 1e9,
                            waveEnd(k - 1, waves), acquisitions.get(), due));
                }
                LockSupport.parkNanos(20_000);
            }
            for (; i < waveEnd(k, waves); i++) {
                spawnedAt[i] = System.nanoTime();
                handles[i] = rt.spawn(new Competitor(i, gates[k]));
            }
        }
        AsyncWorkload.await(done, name());
        long end = 0;
        long[] wakes = new long[tasks];
        long[] completion = new long[tasks];
        for (int i = 0; i < tasks; i++) {
            try {
                handles[i].get();
            } catch (Exception e) {
                throw new IllegalStateException(name() + ": task " + i + " failed", e);
            }
            wakes[i] = handles[i].wakeCount();
            completion[i] = finishedAt[i] - spawnedAt[i];
            end = Math.max(end, finishedAt[i]);
        }
        AsyncWorkload.check(name() + " acquisitions", (long) tasks * acquires, acquisitions.get());
        for (int i = 0; i < tasks; i++) {
            AsyncWorkload.check(name() + " acquisitions of task " + i, acquires, perTask[i]);
        }
        if (herd != null && !herd.idle()) {
            throw new IllegalStateException(name() + ": the lock ended with a permit held or a waiter left");
        }
        if (maxHeld.get() > permits) {
            throw new WrongResultException(name() + " most holders at once (permits)", permits, maxHeld.get());
        }
        Arrays.sort(wakes);
        Arrays.sort(completion);
        return new Result(tasks, end - t0, wakes, completion);
    }
}
