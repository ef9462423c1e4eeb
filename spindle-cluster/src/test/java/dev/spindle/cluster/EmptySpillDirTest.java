/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * {@code --spill-dir ""} (a path from an unset variable) is refused: the empty path is the
 * current directory to {@code Path.of}, which is a directory, so the worker spilled its values
 * under whatever directory it happened to be started in, without a word.
 */
class EmptySpillDirTest {

    @Test
    void anEmptySpillDirIsRefused() {
        WorkerCommandLine line = WorkerCommandLine.parse(new String[] {"--spill-dir", ""},
                WorkerCommandLine.withMemoryOptions());
        assertThatThrownBy(line::memory).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--spill-dir needs a directory, got ''");
    }
}
