/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Scheduler;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Before (JDK 19 and later only): an owning union whose member is a JDK executor (here a
 * {@link ThreadPoolExecutor} that is also a {@link Scheduler}) closed it with the
 * {@code close()} every {@link java.util.concurrent.ExecutorService} has from JDK 19, which drops
 * the tasks an interrupted close's {@code shutdownNow()} returns: a future of the union's
 * {@code submit} still queued there never completed, and its {@code get} waited for good ("still
 * waiting 10 s after the union closed"). On JDK 17, where such a member is not
 * {@link AutoCloseable}, the union shuts it down and awaits it itself, cancelling those futures,
 * as its overview says of every {@code ExecutorService} member; it now does so on every JDK.
 * The test runs on every JDK; it failed only on JDK 19 and later.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnionCloseOfAJdkExecutorMemberTest {

    /** A JDK executor given to a union as a member. */
    static final class JdkMember extends ThreadPoolExecutor implements Scheduler {
        JdkMember() {
            super(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        }
    }

    @Test
    void anInterruptedCloseCancelsTheUnionsFuturesQueuedInAJdkMember() throws Exception {
        JdkMember member = new JdkMember();
        SchedulerUnion union = SchedulerUnion.owning(member);
        CountDownLatch started = new CountDownLatch(1);
        try {
            union.execute(() -> {              // holds the only thread until shutdownNow interrupts it
                started.countDown();
                try {
                    new CountDownLatch(1).await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    // shutdownNow's: the task ends
                }
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            Future<String> queued = union.submit(() -> "ran");

            Thread closer = new Thread(union::close, "closer");
            closer.setDaemon(true);
            closer.start();
            closer.interrupt();                // an interrupted close: shutdownNow, and the drops cancelled
            closer.join(TimeUnit.SECONDS.toMillis(10));
            assertThat(union.isTerminated()).as("terminated").isTrue();

            Object got;
            try {
                got = CompletableFuture.supplyAsync(() -> {
                    try {
                        return queued.get();
                    } catch (Throwable e) {
                        return e;
                    }
                }).get(10, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                got = "still waiting 10 s after the union closed";
            }
            assertThat(got).as("how the queued future's get ended").isInstanceOf(CancellationException.class);
        } finally {
            member.shutdownNow();
        }
    }
}
