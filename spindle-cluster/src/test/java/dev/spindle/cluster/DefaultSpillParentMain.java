/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * A store with a memory limit and no spill parent, filled past its pause fraction, in a JVM of
 * its own whose {@code java.io.tmpdir} {@link DefaultSpillParentTest} chooses (the test JVM's own
 * is left alone). Prints one line: how many values spilled, and whether the store is stuck.
 */
final class DefaultSpillParentMain {

    private DefaultSpillParentMain() {
    }

    public static void main(String[] args) {
        DataStore store = new DataStore(new WorkerMemory(1_000, null));
        for (int i = 0; i < 10; i++) {
            store.put("v" + i, new byte[100], 100);    // 1,000 bytes: over the target, then the pause fraction
        }
        System.out.println("spills=" + store.spills() + " stuck=" + store.stuck());
        store.clear();
    }
}
