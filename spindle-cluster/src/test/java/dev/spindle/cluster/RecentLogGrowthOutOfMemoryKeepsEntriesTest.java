/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.ChildJvm;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scheduler's steal and task logs ({@link RecentLog}) are read by {@code stats()}; the
 * scheduler survives an {@link OutOfMemoryError} in a transition. An {@code ArrayDeque} stores an
 * element before it grows, so a grow that failed left it with head == tail: it looked empty, every
 * entry logged before was gone from the stats, and the next adds overwrote them. A real
 * OutOfMemoryError, in a child JVM with a full heap (a full heap would disturb the other tests).
 */
class RecentLogGrowthOutOfMemoryKeepsEntriesTest {

    @Test
    void anAddOnAFullHeapKeepsTheEntriesLoggedBefore() throws Exception {
        String out = ChildJvm.run(Child.class, 90, "-Xmx48m", "-XX:+UseSerialGC");
        assertThat(out).as("the child's report").contains("RESULT ");
        String result = out.substring(out.indexOf("RESULT ")).trim();
        // the 16 entries logged before the full heap stay, oldest first, and the one logged after it follows
        assertThat(result).startsWith("RESULT [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, ")
                .contains(", 99]");
    }

    @Test
    void addingBeyondTheCapacityDropsTheOldest() {
        RecentLog<Integer> log = new RecentLog<>(3);
        assertThat(log.copy()).isEmpty();
        for (int i = 0; i < 5; i++) {
            log.add(i);
        }
        assertThat(log.copy()).containsExactly(2, 3, 4);
        log.add(5);
        assertThat(log.copy()).containsExactly(3, 4, 5);
    }

    /** The child JVM: logs 16 entries, fills the heap, logs one (the deque's first grow), frees it, logs one. */
    public static final class Child {
        /** Fills the heap; cleared before the report (here: the test class would load on a full heap). */
        private static Object[] hog;

        public static void main(String[] args) {
            RecentLog<Integer> log = new RecentLog<>(1_000);
            for (int i = 0; i < 16; i++) {
                log.add(i);
            }
            Integer sixteen = 16;
            Integer late = 99;
            boolean failed = false;
            // warm the paths the full heap must not allocate on (class loading allocates)
            RecentLog<Integer> warm = new RecentLog<>(1_000);
            for (int i = 0; i < 40; i++) {
                warm.add(i);
            }
            fill();
            try {
                log.add(sixteen);             // an ArrayDeque's default array holds 16: it grows here
            } catch (OutOfMemoryError e) {
                failed = true;         // no string constant here: its first use allocates
            }
            hog = null;
            log.add(late);
            List<Integer> entries = log.copy();
            System.out.println("RESULT " + entries + (failed ? " (the add on the full heap failed)" : ""));
        }

        /** Allocates until nothing is left, in ever smaller chunks, and holds them. */
        private static void fill() {
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
    }
}
