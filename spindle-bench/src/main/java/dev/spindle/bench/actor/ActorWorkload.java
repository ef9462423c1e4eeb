/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import dev.spindle.bench.workload.Checks;
import dev.spindle.bench.workload.WrongResultException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * An actor workload (after the Savina suite) at a fixed size, written once against
 * {@link ActorKit} so that it runs on every actor runtime. The quick harness, the JMH benchmark
 * and the tests call {@link #run(ActorKit)}.
 *
 * <p>Every run checks what it computed against the known answer and throws
 * {@link WrongResultException} if they differ, so a runtime that loses, duplicates or reorders
 * messages cannot post a fast time.
 */
public abstract class ActorWorkload {

    /** How long a run may take before it is reported as hung. */
    static final long TIMEOUT_SECONDS = 120;
    private static final long POLL_MILLIS = 50;

    /** The workload's name, as used on the command line ({@code pingpong}, {@code big}, ...). */
    public abstract String name();

    /** A one-line description including the size, for reports. */
    public abstract String describe();

    /** The known answer. */
    public abstract long expected();

    /** Messages sent in one run (every tell counts, start and report messages included). */
    public abstract long messages();

    /**
     * Runs once on {@code kit}, from the calling thread (which must not be one of the kit's), and
     * returns the result after checking it. Every actor the run spawned is stopped before it
     * returns.
     *
     * @throws WrongResultException if the result is wrong
     * @throws IllegalStateException if a handler threw, or the run did not complete within a
     *     generous timeout
     */
    public final long run(ActorKit kit) {
        Run r = new Run(kit);
        try {
            long actual = runUnchecked(r);
            return Checks.expect(describe() + " on " + kit.id(), expected(), actual);
        } finally {
            r.stopAll();
        }
    }

    /** Runs once and returns what was computed, unchecked; extra checks may throw. */
    protected abstract long runUnchecked(Run run);

    /** One run: spawns through the kit, remembers the actors to stop them, and waits. */
    protected final class Run {
        private final ActorKit kit;
        private final List<Addr<?>> spawned = new ArrayList<>();

        Run(ActorKit kit) {
            this.kit = kit;
        }

        /**
         * Spawns an actor from the benchmark thread. Handlers that spawn actors themselves must
         * stop them (or report them back); this one is stopped after the run.
         */
        public <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour) {
            Addr<M> a = kit.spawn(behaviour);
            spawned.add(a);
            return a;
        }

        /**
         * Waits for {@code latch}; fails at once if a handler threw, or after the timeout. Also
         * once the latch is open: a kit that catches what a handler throws lets the actor go on,
         * so a handler that threw after its share of the work left a right result and an open
         * latch, and a run that ended before the first look returned as if nothing had happened.
         */
        public void await(CountDownLatch latch) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            try {
                while (!latch.await(POLL_MILLIS, TimeUnit.MILLISECONDS)) {
                    failIfAHandlerThrew();
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException(describe() + " on " + kit.id() + " did not complete within "
                                + TIMEOUT_SECONDS + " s (" + latch.getCount() + " still pending)");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(describe() + " interrupted", e);
            }
            failIfAHandlerThrew();
        }

        private void failIfAHandlerThrew() {
            Throwable t = kit.firstFailure();
            if (t != null) {
                throw new IllegalStateException(describe() + " on " + kit.id() + ": a handler threw " + t, t);
            }
        }

        /** Fails with {@link WrongResultException} unless {@code actual == expected}. */
        public void expect(String what, long expected, long actual) {
            Checks.expect(describe() + " on " + kit.id() + ": " + what, expected, actual);
        }

        void stopAll() {
            for (Addr<?> a : spawned) {
                a.stop();
            }
            spawned.clear();
        }
    }

    static int positive(String what, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(what + " must be at least 1, was " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return describe();
    }
}
