/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * {@code ExecutorService.close()} as Java 19 defines it, for the pools of spindle-core and for
 * the modules that own one (an actor system closing its pool), with one addition: the tasks that
 * the {@code shutdownNow()} of an interrupted close drops (the contract says they are not
 * executed) go to a handler instead of vanishing. Their callers are waiting for them, and nobody
 * else holds them: left alone, a {@code submit} whose task was dropped would never complete, and
 * a {@code get} on it would wait for good, where the pools promise that a task runs or its caller
 * is told. The pools' handler is {@link #cancelIfFuture}; a plain {@code Runnable} given to
 * {@code execute} has no caller left to tell, as with the JDK's executors, unless it is
 * {@link Droppable} (an actor's activation, whose actor's senders wait for it). Not part of the
 * public API: the package is exported only to Spindle's own modules.
 */
public final class Closing {

    private Closing() {
    }

    /**
     * Shuts {@code pool} down and waits for it to terminate. If interrupted while waiting it
     * calls {@code shutdownNow()} once, hands each task it returns to {@code dropped}, keeps
     * waiting, and restores the interrupt. Called from one of the pool's own workers
     * ({@code fromOwnWorker}) it only shuts down: the pool cannot terminate while the caller's
     * task runs.
     *
     * <p>If {@code dropped} throws for a task (cancelling a future runs its {@code done()}, a
     * user's callback, which may fail), the other tasks are still handed to it, the wait goes on
     * and the interrupt is restored; the first failure is then rethrown, with the later ones
     * {@linkplain Throwable#addSuppressed suppressed}. Thrown at once, it left every later task
     * untold (a future whose {@code get} then waited for good), returned before the pool
     * terminated, and lost the interrupt.
     *
     * @param pool the pool to close
     * @param fromOwnWorker whether the calling thread is one of {@code pool}'s workers
     * @param dropped told of every task an interrupted close keeps from running
     */
    public static void close(ExecutorService pool, boolean fromOwnWorker, Consumer<? super Runnable> dropped) {
        pool.shutdown();
        if (fromOwnWorker) {
            return;
        }
        boolean interrupted = false;
        Throwable failure = null;
        while (!pool.isTerminated()) {
            try {
                pool.awaitTermination(1, TimeUnit.DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) {
                    interrupted = true;
                    for (Runnable r : pool.shutdownNow()) {
                        try {
                            dropped.accept(r);
                        } catch (RuntimeException | Error f) {
                            if (failure == null) {
                                failure = f;
                            } else if (f != failure) {
                                failure.addSuppressed(f);
                            }
                        }
                    }
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure instanceof Error err) {
            throw err;
        }
        if (failure != null) {
            throw (RuntimeException) failure;
        }
    }

    /**
     * The pools' handler of dropped tasks: a {@link Future} (from {@code submit}) never started,
     * so it is cancelled and its caller told; a {@link Droppable} is told it was dropped;
     * anything else is left alone.
     *
     * @param task a task an interrupted close keeps from running
     */
    public static void cancelIfFuture(Runnable task) {
        if (task instanceof Future<?> f) {
            f.cancel(false);
        } else if (task instanceof Droppable d) {
            d.dropped();
        }
    }

    /**
     * A task given to {@code execute} whose callers wait for it although it is no
     * {@link Future}: an actor's activation, which the actor's asks and stop wait for. Dropped by
     * an interrupted close of one of Spindle's pools (a pool the caller owns and closes after the
     * actor system, say), it was left alone: the actor never ran again, and its asks, its stop
     * and every later message waited for good. {@link Closing#cancelIfFuture} tells it instead.
     */
    public interface Droppable {

        /**
         * Called once, on the closing thread, for a task that will never run: the caller holds
         * it now, as the one that took it from the pool's queue.
         */
        void dropped();
    }
}
