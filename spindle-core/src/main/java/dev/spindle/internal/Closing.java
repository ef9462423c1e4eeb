/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/** {@code ExecutorService.close()} as Java 19 defines it, for the pools of this package. */
final class Closing {

    private Closing() {
    }

    /**
     * Shuts {@code pool} down and waits for it to terminate. If interrupted while waiting it
     * calls {@code shutdownNow()} once, keeps waiting, and restores the interrupt. Called from
     * one of the pool's own workers ({@code fromOwnWorker}) it only shuts down: the pool cannot
     * terminate while the caller's task runs.
     */
    static void close(ExecutorService pool, boolean fromOwnWorker) {
        pool.shutdown();
        if (fromOwnWorker) {
            return;
        }
        boolean interrupted = false;
        while (!pool.isTerminated()) {
            try {
                pool.awaitTermination(1, TimeUnit.DAYS);
            } catch (InterruptedException e) {
                if (!interrupted) {
                    pool.shutdownNow();
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
