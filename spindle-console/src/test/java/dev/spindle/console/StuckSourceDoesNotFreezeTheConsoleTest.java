/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import dev.spindle.pool.WorkStealingPool;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every source was read on the sampler's one thread: a stats supplier stuck in a call (a
 * coordinator whose network is gone, a lock never released) stopped the sampling of every other
 * source with it, and each page froze with nothing to say why; {@code close()} then gave up on
 * the stuck thread after its wait without a word. Now a source that has not answered within its
 * wait is shown as not answering while the others go on, and {@code close()} says which thread
 * it left running.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StuckSourceDoesNotFreezeTheConsoleTest {

    /** A supplier that, once entered, returns only when released: interrupts do not end its wait. */
    private static final class Stuck implements Supplier<SchedulerStats> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public SchedulerStats get() {
            entered.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    release.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;        // ignored, as a call that ignores interrupts does
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("released");
        }
    }

    @Test
    void theOtherSourcesAreStillShownAndCloseSaysWhatItLeftRunning() throws Exception {
        Logger logger = Logger.getLogger(Console.class.getName());
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        Stuck stuck = new Stuck();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("goes-on").build()) {
            Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start();
            try {
                console.register("stuck", stuck);
                assertThat(stuck.entered.await(30, TimeUnit.SECONDS)).as("the stuck source is read").isTrue();
                console.register("goes-on", pool::stats);
                for (int i = 0; i < 100; i++) {
                    pool.execute(() -> { });
                }
                String snapshot = console.latest();
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);   // only against a hang
                while (!snapshot.contains("\"completed\":100") && System.nanoTime() < until) {
                    Thread.sleep(20);
                    snapshot = console.latest();
                }
                assertThat(snapshot).as("a sample while one source is stuck")
                        .contains("\"name\":\"goes-on\"").contains("\"completed\":100")
                        .containsPattern("\\{\"kind\":\"error\",\"name\":\"stuck\",\"error\":\"not answering");
            } finally {
                console.close();               // returns after its bounded wait, the read still stuck
            }
            assertThat(warnings).extracting(LogRecord::getMessage)
                    .anyMatch(m -> m.contains("closed with spindle-console-") && m.contains("left running"));
        } finally {
            stuck.release.countDown();
            logger.removeHandler(handler);
        }
    }
}
