/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@code Async.cancel(null)} did nothing, where every other entry point of {@link Async} throws a
 * {@link NullPointerException} naming the parameter: a caller that lost its task reference
 * (and so left what the task held registered) was not told.
 */
class AsyncCancelOfNullNamesTheTaskTest {

    @Test
    void cancelOfNullThrowsNamingTheTask() {
        assertThatThrownBy(() -> Async.cancel(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
    }
}
