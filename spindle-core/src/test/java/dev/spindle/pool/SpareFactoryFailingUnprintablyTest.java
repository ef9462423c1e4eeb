/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Unprintable;
import dev.spindle.Spindle;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thread factory that fails for a spare with an exception whose {@code toString()} throws (user
 * code): the blocking section runs without compensation, as for any other failure of the
 * factory. The failure's message printed the exception, so the printing's failure escaped
 * {@code tryStartWorker}: the section threw it without running, and the worker stayed counted
 * as blocked for good, so no later section of it was compensated and a task waiting there for
 * a queued one waited for ever; and the pool's {@code close()} waited for ever too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SpareFactoryFailingUnprintablyTest {

    @Test
    void aSectionWhoseSpareCannotBeMadeRunsUncompensatedAndLaterSectionsAreCompensated() throws Exception {
        AtomicBoolean failing = new AtomicBoolean(false);
        ThreadFactory factory = r -> {
            if (failing.get()) {
                throw new Unprintable();
            }
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        };
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(2)
                .threadFactory(factory).build();
        try {
            failing.set(true);
            Object first = pool.invoke(() -> {
                try {
                    return Spindle.blocking(() -> 42);
                } catch (Throwable e) {
                    return e;
                }
            });
            assertThat(first).isEqualTo(42);

            failing.set(false);
            CountDownLatch released = new CountDownLatch(1);
            // the only worker blocks until a task queued behind it runs: only a spare can run it
            Object second = pool.invoke(() -> {
                pool.spawn(() -> {
                    released.countDown();
                    return null;
                });
                return Spindle.blocking(() -> released.await(20, TimeUnit.SECONDS));
            });
            assertThat(second).isEqualTo(true);

            pool.shutdown();
            assertThat(pool.awaitTermination(20, TimeUnit.SECONDS)).as("terminated").isTrue();
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(5, TimeUnit.SECONDS);   // a hang guard; the body asserts it
        }
    }
}
