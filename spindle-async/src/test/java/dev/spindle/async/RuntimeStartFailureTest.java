/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.io.ReactorGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code build()} starts the worker threads one after another. When a start fails (no native
 * thread left for the moment), build throws and the caller gets no runtime to close: the workers
 * started before the failure parked for good, one more set at each retry, and the I/O drivers
 * claimed for the runtime stayed claimed, so no later runtime could drive them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RuntimeStartFailureTest {

    /** Starts the first {@code ok} threads, recording them, and fails the next start. */
    private static Consumer<Thread> failingAfter(int ok, List<Thread> started) {
        return t -> {
            if (started.size() == ok) {
                throw new OutOfMemoryError("unable to create native thread (injected)");
            }
            t.start();
            started.add(t);
        };
    }

    @Test
    void theWorkersStartedBeforeAFailedStartExit() throws Exception {
        List<Thread> started = new ArrayList<>();
        AsyncRuntime.Builder b = AsyncRuntime.builder().workers(3).name("start-failure")
                .threadStarter(failingAfter(2, started));

        assertThatThrownBy(b::build).isInstanceOf(OutOfMemoryError.class).hasMessageContaining("injected");

        assertThat(started).hasSize(2);
        for (Thread t : started) {
            t.join(TimeUnit.SECONDS.toMillis(10));   // a hang guard: build should have joined them
            assertThat(t.isAlive()).as("worker %s started before the failure", t.getName()).isFalse();
        }
    }

    @Test
    void theDriversClaimedForARuntimeWhoseStartFailedCanDriveAnother() throws Exception {
        try (ReactorGroup io = ReactorGroup.openDriven(1)) {
            List<Thread> started = new ArrayList<>();
            AsyncRuntime.Builder failing = AsyncRuntime.builder().workers(2).driveIo(io.reactors())
                    .threadStarter(failingAfter(1, started));
            assertThatThrownBy(failing::build).isInstanceOf(OutOfMemoryError.class);

            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).driveIo(io.reactors()).build()) {
                String v = rt.run(cx -> Poll.ready("driven"));
                assertThat(v).isEqualTo("driven");
            }
            for (Thread t : started) {
                t.join(TimeUnit.SECONDS.toMillis(10));
                assertThat(t.isAlive()).isFalse();
            }
        }
    }
}
