/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;

/** For retention tests in every module (the core's test-jar): whether the collector reclaims an object. */
public final class Gc {

    private Gc() {
    }

    /**
     * Asks for collections, with some allocation pressure, for up to 10 s until {@code ref} is
     * cleared.
     *
     * @return whether it was cleared
     */
    public static boolean collected(WeakReference<?> ref) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ref.get() != null && System.nanoTime() < deadline) {
            System.gc();
            byte[][] pressure = new byte[16][];
            for (int i = 0; i < pressure.length; i++) {
                pressure[i] = new byte[1 << 16];
            }
            Thread.sleep(10);
        }
        return ref.get() == null;
    }
}
