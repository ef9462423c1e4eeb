/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The calling thread's allocation counter, for tests that check a path allocates nothing (a
 * failure that needs an allocation to fail cannot be injected into code that allocates none).
 */
final class AllocationCounter {

    private AllocationCounter() {
    }

    /**
     * {@code com.sun.management.ThreadMXBean}'s {@code getCurrentThreadAllocatedBytes()}, bound
     * and enabled, or {@code null} where there is none. Looked up by name (this module does not
     * read the management modules); call it with {@code (long) handle.invokeExact()}, which boxes
     * nothing.
     */
    static MethodHandle forCurrentThread() {
        try {
            Object threads = Class.forName("java.lang.management.ManagementFactory")
                    .getMethod("getThreadMXBean").invoke(null);
            Class<?> type = Class.forName("com.sun.management.ThreadMXBean");
            if (!type.isInstance(threads)
                    || !(boolean) type.getMethod("isThreadAllocatedMemorySupported").invoke(threads)) {
                return null;
            }
            type.getMethod("setThreadAllocatedMemoryEnabled", boolean.class).invoke(threads, true);
            return MethodHandles.publicLookup()
                    .findVirtual(type, "getCurrentThreadAllocatedBytes", MethodType.methodType(long.class))
                    .bindTo(threads);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }
}
