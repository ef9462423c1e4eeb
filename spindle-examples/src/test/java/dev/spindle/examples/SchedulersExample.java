/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.Hints;
import dev.spindle.pool.*;

/** README.md, "Schedulers"; the tasks do nothing. */
final class SchedulersExample {
    record Account(int id) {
    }

    private final Account account = new Account(3);
    private final byte[] block = new byte[64];

    void run() {
        try (PriorityPool urgentFirst = PriorityPool.builder().workers(2).build()) {
            urgentFirst.execute(() -> rebuildIndex(), Hints.ofPriority(10));
            urgentFirst.execute(() -> answerUser(), Hints.ofPriority(-1));   // smaller runs first
        }

        try (PinnedPool shards = PinnedPool.builder().workers(4).build()) {
            shards.execute(() -> update(account), Hints.DEFAULT.withWorkerIndex(account.id()));  // same id, same thread
        }

        // Control work on its own thread, bulk work on a pool of its own; the union owns and closes both.
        try (SchedulerUnion union = SchedulerUnion.owning(
                WorkSharingPool.builder().workers(1).name("control").build(),
                WorkStealingPool.builder().name("bulk").build())) {
            union.execute(() -> heartbeat(), Hints.DEFAULT);                          // member 0
            union.execute(() -> compress(block), Hints.DEFAULT.withSchedulerIndex(1)); // member 1
        }
    }

    private void rebuildIndex() {
    }

    private void answerUser() {
    }

    private void update(Account a) {
    }

    private void heartbeat() {
    }

    private void compress(byte[] b) {
    }
}
