/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.testkit.Await;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A {@code close()} interrupted while it waits calls {@code shutdownNow()} and cancels every
 * future it returns, so that their callers are told, then keeps waiting and restores the
 * interrupt. A future given to {@code execute} whose {@code done()} throws (a listener that
 * fails, say) made the first {@code cancel} throw out of {@code close()}: the futures after it
 * were never cancelled (their {@code get()} waited for good), {@code close()} returned before the
 * pool terminated, and the interrupt it had consumed was lost.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptedCloseWithAFailingFutureTest {

    /** A future whose completion callback fails. */
    static final class FailingDone extends FutureTask<Void> {
        final IllegalStateException failure = new IllegalStateException("a listener of this future failed");

        FailingDone() {
            super(() -> null);
        }

        @Override
        protected void done() {
            throw failure;
        }
    }

    /** A future that frees the task holding the worker once it completes. */
    static final class Releasing extends FutureTask<Void> {
        private final CountDownLatch release;

        Releasing(CountDownLatch release) {
            super(() -> null);
            this.release = release;
        }

        @Override
        protected void done() {
            release.countDown();
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void theOtherFuturesAreCancelledAndCloseStillWaits(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        try {
            pool.execute(() -> {               // holds the one worker until the last future is done
                busy.countDown();
                Await.ignoringInterrupts(release);   // shutdownNow's interrupt: it ends only when released
            });
            assertThat(busy.await(20, TimeUnit.SECONDS)).isTrue();
            FailingDone failing = new FailingDone();
            Releasing last = new Releasing(release);
            pool.execute(failing);
            pool.execute(last);

            Thread.currentThread().interrupt(); // close() sees it at its first wait: shutdownNow
            Throwable thrown = catchThrowable(pool::close);
            boolean interruptRestored = Thread.interrupted();
            SoftAssertions.assertSoftly(soft -> {
                soft.assertThat(last.isCancelled()).as("the future after the failing one is cancelled").isTrue();
                soft.assertThat(pool.isTerminated()).as("close() returned once the pool terminated").isTrue();
                soft.assertThat(interruptRestored).as("close() restored the interrupt").isTrue();
                soft.assertThat(thrown).as("what close() threw").isSameAs(failing.failure);
                soft.assertThat(failing.isCancelled()).isTrue();
            });
        } finally {
            Thread.interrupted();
            release.countDown();
            pool.shutdownNow();
            assertThat(pool.awaitTermination(20, TimeUnit.SECONDS)).isTrue();
        }
    }
}
