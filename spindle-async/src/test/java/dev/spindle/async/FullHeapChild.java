/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.testkit.ChildJvm;
import static org.assertj.core.api.Assertions.assertThat;


/**
 * For tests of what a real {@link OutOfMemoryError} does (a test hook throwing one where the JDK
 * does not may hide where the JDK does): a test's {@code main} class runs in a child JVM with a
 * small heap, fills it ({@link #fill}), runs the operation that must fail, frees it
 * ({@link #free}), and prints a line starting with {@code RESULT }, which {@link #result}
 * returns. A full heap would disturb every other test sharing this JVM.
 */
final class FullHeapChild {

    /** Fills the heap; cleared by {@link #free}. */
    private static Object[] hog;

    private FullHeapChild() {
    }

    /** Allocates until nothing is left, in ever smaller chunks, and holds them. */
    static void fill() {
        Object[] chain = null;
        int size = 1 << 20;
        while (size > 0) {
            try {
                Object[] link = new Object[2];
                link[0] = chain;
                link[1] = new long[size];
                chain = link;
            } catch (OutOfMemoryError e) {
                size >>= 1;
            }
        }
        hog = chain;
    }

    /** Lets go of what {@link #fill} holds. */
    static void free() {
        hog = null;
    }

    /** A context polling by hand: budget without end, a waker that counts nothing. */
    static final class HandContext implements Context {
        private final Waker waker = new Waker() {
            @Override
            public void wake() {
            }

            @Override
            public boolean expired() {
                return false;
            }
        };

        @Override
        public Waker waker() {
            return waker;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    }

    /**
     * Runs {@code main} in a child JVM with a heap of 48 MiB (a serial collector: one heap, no
     * regions) and this class path, and returns its {@code RESULT} line, after asserting that it
     * finished in time and printed one.
     */
    static String result(Class<?> main) throws Exception {
        String out = ChildJvm.run(main, 90, "-Xmx48m", "-XX:+UseSerialGC");
        assertThat(out).as("the child's report").contains("RESULT ");
        return out.substring(out.indexOf("RESULT ")).trim();
    }
}
