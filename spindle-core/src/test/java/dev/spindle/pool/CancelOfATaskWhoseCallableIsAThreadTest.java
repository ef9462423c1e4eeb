/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A fork task keeps its callable, and then the thread that runs it, in one field; a
 * {@code cancel(true)} waits for that field to hold a {@link Thread} and interrupts it. A
 * callable that is itself a {@code Thread} passed that test before its runner had published
 * itself: the cancel interrupted the callable's thread (another thread, maybe running something
 * else) and never the runner, whose computation went on with nothing to end it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelOfATaskWhoseCallableIsAThreadTest {

    /** How long the rounds go on once the first hundred are done. */
    private static final long ROUNDS_WITHIN_NANOS = TimeUnit.SECONDS.toNanos(15);

    /** A callable that is a thread, never started; records whether anything interrupted it. */
    static final class ThreadCallable extends Thread implements Callable<Integer> {
        final AtomicBoolean interrupted = new AtomicBoolean();

        @Override
        public Integer call() {
            return 1;
        }

        @Override
        public void interrupt() {
            interrupted.set(true);
        }
    }

    /**
     * The cancel races the run's start many times. Before: in some rounds the callable was
     * interrupted and the runner was not (within the first few hundred rounds on 2 cores). Each
     * round starts a thread; on a loaded machine a round can take tens of milliseconds, so the
     * rounds stop after {@link #ROUNDS_WITHIN_NANOS} too (fewer races tried, never a pass made
     * up: a wrong round seen before then fails the test).
     */
    @Test
    void cancelWithInterruptInterruptsTheRunnerNotTheCallable() throws Exception {
        AtomicInteger wrong = new AtomicInteger();
        AtomicInteger raced = new AtomicInteger();
        long start = System.nanoTime();
        for (int round = 0; round < 2_000 && wrong.get() == 0
                && (round < 100 || System.nanoTime() - start < ROUNDS_WITHIN_NANOS); round++) {
            ThreadCallable callable = new ThreadCallable();
            ForkTask<Integer> task = new ForkTask<>(callable, null);
            AtomicBoolean runnerInterrupted = new AtomicBoolean();
            Thread runner = new Thread(() -> {
                task.tryRun();
                // a cancel that won the race is done interrupting once its state is final
                runnerInterrupted.set(Thread.interrupted());
            });
            runner.start();
            while (!task.isDone() && task.runnerHint() == null) {
                Thread.yield();                // the runner may be waiting for this core
            }
            boolean cancelled = task.cancel(true);
            runner.join();
            if (cancelled) {
                raced.incrementAndGet();
                if (callable.interrupted.get() || !runnerInterrupted.get()) {
                    wrong.incrementAndGet();
                }
            }
        }
        assertThat(wrong.get()).as("rounds (of %d cancelled while running) whose cancel interrupted the callable"
                + " instead of the runner", raced.get()).isZero();
    }
}
