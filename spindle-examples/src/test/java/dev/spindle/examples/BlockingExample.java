/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.Spindle;
import dev.spindle.Task;
import dev.spindle.pool.WorkStealingPool;
import java.io.BufferedReader;

/** README.md, "Example": the {@code Spindle.blocking} snippet. */
final class BlockingExample {
    private BlockingExample() {
    }

    static int handle(String line) {
        return line.length();
    }

    static Task<Integer> readAndHandle(WorkStealingPool pool, BufferedReader reader) {
        Task<Integer> handled = pool.spawn(() -> {
            String line = Spindle.blocking(() -> reader.readLine());   // a worker stands in meanwhile
            return handle(line);
        });
        return handled;
    }
}
