/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A timed {@code get} with a {@code null} unit is a bad parameter whatever the handle's state:
 * a handle (or promise) already done returned its outcome, and only a pending one threw, where
 * the JDK's futures ({@link CompletableFuture}, {@code FutureTask}) throw
 * {@link NullPointerException} in both cases. Now it names the unit in both.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class JoinHandleGetWithANullUnitTest {

    @Test
    void aDonePromiseRefusesANullUnitAsTheJdkDoes() {
        assertThatThrownBy(() -> CompletableFuture.completedFuture(1).get(1, null))
                .as("the JDK's answer").isInstanceOf(NullPointerException.class);
        AsyncPromise<Integer> done = new AsyncPromise<>();
        done.complete(1);
        assertThatThrownBy(() -> done.get(1, null)).isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
    }

    @Test
    void aDoneTaskHandleRefusesANullUnit() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Integer> h = rt.spawn(cx -> Poll.ready(7));
            h.get(10, TimeUnit.SECONDS);
            assertThatThrownBy(() -> h.get(1, null)).isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
        }
    }

    @Test
    void aPendingPromiseRefusesANullUnit() {
        AsyncPromise<Integer> pending = new AsyncPromise<>();
        assertThatThrownBy(() -> pending.get(1, null)).isInstanceOf(NullPointerException.class).hasMessageContaining("unit");
    }
}
