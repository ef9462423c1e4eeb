/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An empty list given to {@link Async#select} or {@link Async#any} is refused with an
 * {@link IllegalArgumentException} that names the parameter and the method called. Before,
 * {@code any} said "select needs at least one task", naming a method its caller never called,
 * and neither named {@code tasks}.
 */
class EmptySelectAndAnyMessageTest {

    @Test
    void selectOfNothingNamesTasksAndSelect() {
        assertThatThrownBy(() -> Async.select(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tasks must not be empty: select needs at least one task");
    }

    @Test
    void anyOfNothingNamesTasksAndAny() {
        assertThatThrownBy(() -> Async.any(List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("tasks must not be empty: any needs at least one task");
    }
}
