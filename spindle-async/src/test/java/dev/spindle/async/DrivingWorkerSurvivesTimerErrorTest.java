/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A runtime whose idle workers drive its timers ({@link AsyncRuntime.Builder#driveIo}) fires
 * them on a worker, not on the shared timer's thread. An {@link Error} out of a round of firing
 * itself (the growth of the list of due entries finding no memory left, injected through the
 * timer's {@code taking} hook) ended that worker's loop, and a worker that dies shuts the whole
 * runtime down: the sleeping task failed with the error and the runtime accepted nothing more.
 * The worker must handle it as the timer thread does: report it, back off, and fire the entry in
 * a later round.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DrivingWorkerSurvivesTimerErrorTest {

    @Test
    void anErrorWhileFiringTimersOnADrivingWorkerIsReportedAndTheTimerStillFires() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).driveIo(List.of()).name("timer-error-driven").build()) {
            List<Throwable> reported = new CopyOnWriteArrayList<>();
            rt.spawn(cx -> {
                Thread.currentThread().setUncaughtExceptionHandler((t, e) -> reported.add(e));
                return Poll.ready(null);
            }).get(10, TimeUnit.SECONDS);
            AtomicInteger failures = new AtomicInteger();
            rt.timers.taking = () -> {
                if (failures.incrementAndGet() <= 3) {
                    throw new OutOfMemoryError("no room for the due list (injected)");
                }
            };

            // A sleep first polled after its deadline (a loaded machine, the spawn late) ends at
            // once, without a timer: sleep again until the timer has fired one
            while (failures.get() <= 3) {
                JoinHandle<Void> sleep = rt.spawn(Async.sleep(Duration.ofMillis(20)));
                assertThat(sleep.get(10, TimeUnit.SECONDS)).as("the sleep ended in a later round").isNull();
            }
            assertThat(rt.isShutdown()).as("the runtime goes on").isFalse();
            assertThat(rt.spawn(cx -> Poll.ready(7)).get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(reported).hasSize(3).allSatisfy(e -> assertThat(e)
                    .isInstanceOf(OutOfMemoryError.class).hasMessageContaining("injected"));
        }
    }
}
