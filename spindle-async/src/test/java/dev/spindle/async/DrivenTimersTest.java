/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.io.ReactorGroup;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Timers of a runtime whose workers drive I/O and timers ({@link AsyncRuntime.Builder#driveIo}):
 * fired by a worker (no timer thread), never early, exactly once, removed on cancel; with no
 * I/O driver and with driven reactors.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DrivenTimersTest {

    private static AsyncRuntime runtime(int workers, ReactorGroup io) {
        return AsyncRuntime.builder().workers(workers).name("driven-timers")
                .driveIo(io == null ? List.of() : io.reactors()).build();
    }

    @ParameterizedTest(name = "driven reactors: {0}")
    @ValueSource(ints = {0, 1, 2})
    void sleepsFireOnWorkersExactlyOnceAndNeverEarly(int reactors) throws Exception {
        try (ReactorGroup io = reactors == 0 ? null : ReactorGroup.openDriven(reactors);
                AsyncRuntime rt = runtime(2, io)) {
            int sharedBefore = Timers.pending();
            Random rnd = new Random(15);
            AtomicInteger early = new AtomicInteger();
            AtomicInteger notOnWorker = new AtomicInteger();
            List<JoinHandle<Integer>> hs = new ArrayList<>();
            for (int i = 0; i < 300; i++) {
                long nanos = TimeUnit.MILLISECONDS.toNanos(rnd.nextInt(40));
                AtomicInteger completions = new AtomicInteger();
                long deadline = System.nanoTime() + nanos;    // the sleep's is no earlier
                hs.add(rt.spawn(Async.then(Async.sleep(Duration.ofNanos(nanos)), x -> {
                    if (System.nanoTime() - deadline < 0) {
                        early.incrementAndGet();
                    }
                    if (!Thread.currentThread().getName().startsWith("driven-timers-worker-")) {
                        notOnWorker.incrementAndGet();
                    }
                    return Async.ready(completions.incrementAndGet());
                })));
            }
            for (JoinHandle<Integer> h : hs) {
                assertThat(h.get(30, TimeUnit.SECONDS)).isEqualTo(1);   // completed once
            }
            assertThat(early.get()).isZero();
            assertThat(notOnWorker.get()).isZero();
            assertThat(rt.timers.size()).isZero();
            assertThat(Timers.pending()).isLessThanOrEqualTo(sharedBefore);  // none went to the shared timer
        }
    }

    @Test
    void aTimerEarlierThanTheOneTheDriverSleepsForIsNotLate() throws Exception {
        try (ReactorGroup io = ReactorGroup.openDriven(1); AsyncRuntime rt = runtime(2, io)) {
            JoinHandle<Void> longSleep = rt.spawn(Async.sleep(Duration.ofMinutes(10)));
            await(() -> rt.timers.size() == 1 && rt.stats().parkedWorkers() == 2, "the driver asleep for 10 minutes");
            // a worker woken for this task schedules a 20 ms timer while the driver may be
            // inside select with a 10-minute timeout: it must be woken to wait less
            for (int i = 0; i < 20; i++) {
                rt.spawn(Async.sleep(Duration.ofMillis(20))).get(20, TimeUnit.SECONDS);
            }
            assertThat(longSleep.isDone()).isFalse();
            longSleep.cancel(false);
            await(() -> rt.timers.size() == 0, "the cancelled sleep's entry to go");
        }
    }

    @Test
    void aTimeoutFiresOnceAndACompletedOneLeavesNoEntry() throws Exception {
        try (AsyncRuntime rt = runtime(1, null)) {
            AsyncChannel<Integer> never = new AsyncChannel<>(1);
            JoinHandle<Integer> timedOut = rt.spawn(Async.timeout(never.receive(), Duration.ofMillis(15)));
            assertThatThrownBy(() -> timedOut.get(20, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TimeoutException.class);
            JoinHandle<String> inTime = rt.spawn(Async.timeout(
                    Async.map(Async.sleep(Duration.ofMillis(5)), x -> "in time"), Duration.ofSeconds(30)));
            assertThat(inTime.get(20, TimeUnit.SECONDS)).isEqualTo("in time");
            await(() -> rt.timers.size() == 0, "the 30 s entry to be removed");
        }
    }

    @Test
    void aRuntimeRefusesDriversItCannotDrive() throws IOException {
        try (ReactorGroup threads = ReactorGroup.open(1); ReactorGroup driven = ReactorGroup.openDriven(3)) {
            assertThatThrownBy(() -> AsyncRuntime.builder().workers(1).driveIo(threads.reactors()).build())
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("thread of its own");
            assertThatThrownBy(() -> AsyncRuntime.builder().workers(2).driveIo(driven.reactors()).build())
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more I/O drivers (3) than workers (2)");
            assertThatThrownBy(() -> AsyncRuntime.builder().driveIo(List.of(driven.reactors().get(0), driven.reactors().get(0))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listed twice");
            assertThatThrownBy(() -> AsyncRuntime.builder().driveIo(null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("drivers");
            try (AsyncRuntime first = AsyncRuntime.builder().workers(3).driveIo(driven.reactors()).build()) {
                assertThatThrownBy(() -> AsyncRuntime.builder().workers(3).driveIo(driven.reactors()).build())
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("another runtime");
            }
        }
    }

    @Test
    void idleDrivenWorkersStayAsleep() throws Exception {
        try (ReactorGroup io = ReactorGroup.openDriven(1); AsyncRuntime rt = runtime(2, io)) {
            rt.spawn(Async.sleep(Duration.ofMillis(1))).get(20, TimeUnit.SECONDS);
            await(() -> rt.stats().parkedWorkers() == 2, "both workers asleep");
            long polls = rt.stats().polls();
            Thread.sleep(100);
            assertThat(rt.stats().polls()).isEqualTo(polls);   // nobody spins through tasks
        }
    }
}
