package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The console's request threads: a bounded queue, and deadlines that end only their own exchange. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HandlerPoolTest {

    private static final long TIMEOUT = TimeUnit.MILLISECONDS.toNanos(100);

    @Test
    void beyondItsThreadsAndQueueAnExchangeIsRefused() throws Exception {
        HandlerPool pool = new HandlerPool("test", 1, TimeUnit.SECONDS.toNanos(30));
        CountDownLatch release = new CountDownLatch(1);
        try {
            pool.execute(() -> await(release));
            for (int i = 0; i < HandlerPool.QUEUE; i++) {
                pool.execute(() -> { });
            }
            assertThat(pool.getQueue()).hasSize(HandlerPool.QUEUE);
            assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void anExchangePastItsDeadlineIsInterruptedAndTheNextOneIsNot() throws Exception {
        HandlerPool pool = new HandlerPool("test", 1, TIMEOUT);
        try {
            // blocks until the watchdog interrupts it, and leaves the interrupt status set
            CompletableFuture<Boolean> stuck = new CompletableFuture<>();
            pool.execute(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.onSpinWait();
                }
                stuck.complete(true);
            });
            assertThat(stuck.get(20, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Boolean> next = new CompletableFuture<>();
            pool.execute(() -> next.complete(Thread.currentThread().isInterrupted()));
            assertThat(next.get(20, TimeUnit.SECONDS)).as("the next exchange sees an interrupt").isFalse();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aDisarmedWaitOutlivesTheDeadlineAndAReArmedStepDoesNot() throws Exception {
        HandlerPool pool = new HandlerPool("test", 1, TIMEOUT);
        try {
            CompletableFuture<String> steps = new CompletableFuture<>();
            pool.execute(() -> {
                boolean fired = pool.disarm();
                try {
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(TIMEOUT) * 5);   // a stream waiting for a sample
                } catch (InterruptedException e) {
                    steps.complete("the disarmed wait was interrupted");
                    return;
                }
                pool.arm();                                                     // a write that blocks
                try {
                    new CountDownLatch(1).await();
                } catch (InterruptedException e) {
                    steps.complete("fired before the wait: " + fired + "; after the step: " + pool.disarm());
                }
            });
            assertThat(steps.get(20, TimeUnit.SECONDS)).isEqualTo("fired before the wait: false; after the step: true");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void armingOutsideAHandlerThreadIsAProgrammingError() {
        HandlerPool pool = new HandlerPool("test", 1, TIMEOUT);
        try {
            assertThatThrownBy(pool::arm).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("not a console handler thread");
        } finally {
            pool.shutdownNow();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
