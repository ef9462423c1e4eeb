/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How a member of a transport between JVMs waits for the cluster at start-up: the coordinator
 * until its workers have joined and answer it, a worker until it knows its coordinator. Both poll:
 * membership arrives on the transport's own threads, and a look may itself have to ask the
 * members (a probe with a reply), which a listener could not do. A look runs at least once, then
 * every {@value #POLL_MILLIS} ms until it succeeds or the time is up; a look may also throw to
 * give up at once (a refusal, a second coordinator).
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class Readiness {

    private static final System.Logger LOG = System.getLogger(Readiness.class.getName());

    /**
     * The newest {@link #joinLate} wait of each coordinator's id, by a token of its own: a newer
     * wait for an id ends the older ones (see there). An entry leaves with its wait.
     */
    private static final ConcurrentHashMap<LateJoin, Object> LATEST_JOINS = new ConcurrentHashMap<>();

    private record LateJoin(ClusterCoordinator coordinator, int id) {
    }

    /** Milliseconds between two looks. */
    public static final int POLL_MILLIS = 50;

    /**
     * One look at whether the wait is over.
     *
     * @param <X> what a look may throw to give up at once, besides unchecked exceptions
     */
    @FunctionalInterface
    public interface Look<X extends Exception> {
        /**
         * Whether the member is ready.
         *
         * @return {@code true} if the member is ready; {@code false} to look again after a pause
         * @throws X to give up waiting
         * @throws InterruptedException if interrupted while asking the members
         */
        boolean ready() throws X, InterruptedException;
    }

    /** Something done before each look, such as admitting the members that asked to join. */
    @FunctionalInterface
    public interface Step {
        /**
         * Does it; gives up the wait with an unchecked exception.
         *
         * @throws InterruptedException if interrupted while asking the members
         */
        void run() throws InterruptedException;
    }

    private Readiness() {
    }

    /**
     * Looks until {@code look} succeeds or gives up.
     *
     * @param since when the wait began ({@link System#nanoTime()}), which may be before this call
     *        when an earlier step of the start-up took part of the same time
     * @param timedOut the message of the {@link TimeoutException}, made after the last look
     * @param <X> what a look throws to give up
     * @param timeout the longest wait, counted from {@code since}
     * @param look asked repeatedly, with a short pause between looks
     * @throws TimeoutException if no look succeeded within {@code timeout} of {@code since}
     * @throws X if a look gave up
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public static <X extends Exception> void await(Duration timeout, long since, Look<X> look,
                                                   Supplier<String> timedOut)
            throws X, TimeoutException, InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        long deadline = since + timeoutNanos(timeout);
        while (!look.ready()) {
            if (System.nanoTime() - deadline > 0) {
                throw new TimeoutException(timedOut.get());
            }
            Thread.sleep(POLL_MILLIS);
        }
    }

    /**
     * A wait's {@code timeout} in nanoseconds, for a deadline or a timed {@code get}: saturated at
     * {@link Long#MAX_VALUE} as {@link java.util.concurrent.TimeUnit#convert} saturates, and 0 for
     * a negative one. Not {@code toNanos()}: it throws {@link ArithmeticException} beyond about 292
     * years; and {@code since + Long.MIN_VALUE} lies 2^63 ns away, so {@code now - deadline}
     * overflowed to a negative value and such a wait never timed out.
     *
     * @param timeout the longest wait
     * @return {@code timeout} in nanoseconds, from 0 to {@link Long#MAX_VALUE}
     * @throws NullPointerException if {@code timeout} is null
     */
    public static long timeoutNanos(Duration timeout) {
        if (Objects.requireNonNull(timeout, "timeout").isNegative()) {
            return 0L;
        }
        try {
            return timeout.toNanos();
        } catch (ArithmeticException overflow) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The coordinator's wait: until {@code workers} workers have joined and {@code allReady}
     * (which asks each of them) succeeds.
     *
     * @param since when the wait began ({@link System#nanoTime()})
     * @param joined the workers that have joined so far
     * @param refused the members refused so far, for the timeout's message
     * @param beforeEachLook runs first in every look (admitting members, or giving up with an
     *        unchecked exception)
     * @param allReady whether every worker answers; runs only once all have joined
     * @param workers the number of workers to wait for
     * @param timeout the longest wait, counted from {@code since}
     * @throws TimeoutException "N of M workers joined within T (R members refused)"
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    public static void awaitWorkers(int workers, Duration timeout, long since, IntSupplier joined,
                                    LongSupplier refused, Step beforeEachLook, Look<RuntimeException> allReady)
            throws TimeoutException, InterruptedException {
        await(timeout, since, () -> {
            beforeEachLook.run();
            return joined.getAsInt() >= workers && allReady.ready();
        }, () -> joined.getAsInt() + " of " + workers + " workers joined within " + timeout + " ("
                + refused.getAsLong() + " members refused)");
    }

    /**
     * The coordinator's wait for a worker that joined after the start, on a daemon thread of its
     * own: once {@code allReady} (which asks every live worker, the new one included, and tells
     * them who the workers are) succeeds, the scheduler admits worker {@code id} with the
     * settings' threads per worker. Gives up silently when {@code present} turns false (the member
     * left, or the coordinator is closing) or when the scheduler refuses (the id is alive
     * already). After {@code timeout} without success it gives up too and, unless the scheduler
     * has admitted the id meanwhile (a second wait for the same process, begun by another path,
     * succeeded), logs it and runs {@code cutOff} (a probe that throws counts as one not answered:
     * it is asked again): the joiner is proven but never admitted, so,
     * kept, it sat idle for good and held its id, and a process restarted under that id waited
     * for ever for the holder's loss; {@code cutOff} handles it as a lost worker (its id is free
     * again, and the process is told or downed). A newer wait for the same id of the same
     * coordinator (the id rejoined: a process in a crash loop, or one that never answers) ends
     * this one silently at its next look, as a leaving does: {@code present} asks whether the id
     * has a member, which each new incarnation answers, so the waits of a rejoin storm went on
     * until their timeouts, a thread each, all probing every worker. If {@code present} is false once the scheduler
     * has admitted the worker, it tells the scheduler that the worker is lost: the transport's own
     * report of that loss may have come before the admission, when the scheduler had nothing live
     * to lose.
     *
     * @param coordinator the coordinator that admits the worker
     * @param id the new worker's id
     * @param timeout the longest wait for {@code allReady}
     * @param present whether the member is still there and the coordinator open; asked before each
     *     look
     * @param allReady asks every live worker whether it is ready, and tells them the membership
     * @param cutOff cuts off the process that joined as {@code id} (not a successor that proved the
     *     id since), as a lost worker; run once the wait timed out
     * @throws NullPointerException if an argument is null
     */
    public static void joinLate(ClusterCoordinator coordinator, int id, Duration timeout, BooleanSupplier present,
                                Look<RuntimeException> allReady, Runnable cutOff) {
        Objects.requireNonNull(coordinator, "coordinator");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(present, "present");
        Objects.requireNonNull(allReady, "allReady");
        Objects.requireNonNull(cutOff, "cutOff");
        LateJoin key = new LateJoin(coordinator, id);
        Object token = new Object();
        LATEST_JOINS.put(key, token);
        Thread t = new Thread(() -> {
            // the last probe's, for the log: a transport's text, so written there printable (LogText)
            RuntimeException[] probeFailure = new RuntimeException[1];
            try {
                await(timeout, System.nanoTime(), () -> {
                    if (!present.getAsBoolean()) {
                        throw new IllegalStateException("worker " + id + " left before it could join");
                    }
                    if (LATEST_JOINS.get(key) != token) {
                        throw new IllegalStateException("worker " + id + " rejoined: its newer wait goes on");
                    }
                    try {
                        return allReady.ready();
                    } catch (RuntimeException failed) {
                        // a probe that threw got no answer: asked again, and cut off at the end;
                        // it ended the wait as a leaving did, and the joiner idled for good
                        probeFailure[0] = failed;
                        return false;
                    }
                }, () -> "worker " + id + " joined, but it or another worker did not answer the coordinator's probe"
                        + " within " + timeout + (probeFailure[0] == null ? "" : " (last probe failed: "
                        + LogText.printable(probeFailure[0], LogText.MAX_DETAIL) + ")"));
                coordinator.join(id, coordinator.settings().threadsPerWorker());
                if (!present.getAsBoolean()) {
                    // lost between its answer and its admission: the transport reported the loss
                    // while the scheduler's record of the id was still its lost predecessor's, and
                    // the scheduler ignored it; told again, or the id stays live with nobody behind it
                    coordinator.receive(new Message.WorkerLost(id));
                }
            } catch (TimeoutException notReady) {
                try {
                    List<ClusterStats.WorkerStats> admitted = coordinator.stats().workers();
                    if (id < admitted.size() && admitted.get(id).alive()) {
                        return;               // admitted meanwhile by a twin of this wait (see admitProven's callers)
                    }
                    LOG.log(Level.WARNING, notReady.getMessage() + "; the coordinator gave its join up and cut it"
                            + " off (its id is free again, and a restarted process may join under it)");
                    cutOff.run();
                } catch (RuntimeException closing) {
                    // the coordinator is closing: its leaving tells every worker
                }
            } catch (InterruptedException | RuntimeException gaveUp) {
                // gone, closing, superseded or joined already: the member stays outside the scheduler
            } finally {
                LATEST_JOINS.remove(key, token);
            }
        }, "spindle-late-join-" + id);
        t.setDaemon(true);
        try {
            t.start();
        } catch (RuntimeException | Error notStarted) {
            LATEST_JOINS.remove(key, token);
            throw notStarted;
        }
    }

    /**
     * What the coordinator does with a worker that its transport has just registered
     * ({@link Incarnations#prove}): a new incarnation of an id the scheduler knows (a restarted
     * process) joins once the scheduler has handled the loss of the one before; a new id joins
     * once {@code started} (the start-up wait handles the initial ids). {@code joinLate} is the
     * transport's {@link #joinLate} for that id. Never blocks: asking the scheduler waits for its
     * thread, so it is done on a daemon thread of its own, and the caller may hold its membership
     * lock (the scheduler's thread may be waiting for that lock to cut a retired worker off).
     *
     * @param coordinator the coordinator whose scheduler admits the worker
     * @param proof what {@link Incarnations#prove} answered for the worker
     * @param id the worker's id
     * @param started whether the coordinator's start-up wait is over
     * @param joinLate starts the transport's {@link #joinLate} for an id
     * @throws NullPointerException if {@code coordinator}, {@code proof} or {@code joinLate} is
     *     null
     */
    public static void admitProven(ClusterCoordinator coordinator, Incarnations.Proof proof, int id, boolean started,
                                   IntConsumer joinLate) {
        Objects.requireNonNull(coordinator, "coordinator");
        // here, not on the admission's thread, where the exception was taken for the coordinator
        // closing; a null proof was taken for a refusal
        Objects.requireNonNull(proof, "proof");
        Objects.requireNonNull(joinLate, "joinLate");
        if (proof != Incarnations.Proof.NEW && proof != Incarnations.Proof.REJOINED) {
            return;                           // refused, or waiting for the id to be free
        }
        Thread t = new Thread(() -> {
            try {
                if (proof == Incarnations.Proof.REJOINED && id < coordinator.stats().workers().size()) {
                    coordinator.gone(id).thenRun(() -> joinLate.accept(id));
                } else if (started && id >= coordinator.workers()) {
                    // a new id, or one lost before the scheduler admitted it
                    joinLate.accept(id);
                }
            } catch (RuntimeException closing) {
                // the coordinator closed: nobody joins any more
            }
        }, "spindle-admit-" + id);
        t.setDaemon(true);
        t.start();
    }
}
