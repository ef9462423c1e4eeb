/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LiveTasksTest {

    private static TaskCell<Object> cell(AsyncRuntime rt) {
        return new TaskCell<>(rt, cx -> Poll.ready(null));
    }

    @Test
    void keepsEveryCellNotDoneAndDropsDoneOnesWhenPruning() {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            LiveTasks live = new LiveTasks();
            List<TaskCell<Object>> pending = new ArrayList<>();
            for (int i = 0; i < 10_000; i++) {
                TaskCell<Object> c = cell(rt);
                live.add(c);
                if (i % 10 == 0) {
                    pending.add(c);
                } else {
                    c.finish();
                }
            }
            live.pruneIfLong();
            List<TaskCell<?>> seen = new ArrayList<>();
            live.forEachNotDone(Integer.MAX_VALUE, seen::add);
            assertThat(seen).containsExactlyInAnyOrderElementsOf(pending);
            // done cells were unlinked: the list stays within the documented bound
            assertThat(live.length()).isLessThanOrEqualTo(pending.size() + Math.max(64, pending.size() / 2) * 2);
            pending.get(0).finish();
            live.pruneIfLong();
            List<TaskCell<?>> after = new ArrayList<>();
            live.forEachNotDone(Integer.MAX_VALUE, after::add);
            assertThat(after).hasSize(pending.size() - 1).doesNotContain(pending.get(0));
            for (int i = 0; i < 10 * pending.size(); i++) {     // growth since the last pruning
                TaskCell<Object> d = cell(rt);
                d.finish();
                live.add(d);
            }
            live.pruneIfLong();
            assertThat(live.length()).isEqualTo(pending.size() - 1);   // grew enough: pruned exactly
        }
    }
}
