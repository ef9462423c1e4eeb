/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The public API's contract on bad arguments: what the caller got wrong is named in the failure.
 */
class PublicApiContractRegressionTest {

    private AsyncRuntime runtime;

    @BeforeEach
    void start() {
        runtime = AsyncRuntime.builder().workers(2).build();
    }

    @AfterEach
    void stop() {
        runtime.close();
    }

    private Throwable failureOf(AsyncTask<?> task) {
        Throwable t = catchThrowable(() -> runtime.spawn(task).get(30, SECONDS));
        assertThat(t).isInstanceOf(ExecutionException.class);
        return t.getCause();
    }

    /**
     * A loop turn whose task completed with null (instead of a Step) failed with the VM's
     * message about a local variable ("Cannot read field "done" because "s" is null"), where a
     * step that returns null is reported as "loop: step returned null".
     */
    @Test
    void loopTurnCompletingWithNullIsNamed() {
        Throwable cause = failureOf(Async.<Integer, Integer>loop(0, s -> Async.ready(null)));
        assertThat(cause).isInstanceOf(NullPointerException.class).hasMessageContaining("loop");
    }

    /**
     * whileTrue's body returning null failed with map's "task", and a turn completing with a null
     * Boolean with the VM's message about unboxing "more": neither names whileTrue or its body.
     */
    @Test
    void whileTrueNullsAreNamed() {
        Throwable nullTask = failureOf(Async.whileTrue(() -> null));
        assertThat(nullTask).isInstanceOf(NullPointerException.class).hasMessageContaining("whileTrue");
        Throwable nullResult = failureOf(Async.whileTrue(() -> Async.ready(null)));
        assertThat(nullResult).isInstanceOf(NullPointerException.class).hasMessageContaining("whileTrue");
    }
}
