/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.testkit.NoJfrSetUp;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * As the pools' test of the same name: a JVM that never records sets up no JFR on the async
 * runtime's account (spawns and polls test for the long-poll event, idle workers for the park
 * events, a refused spawn records one). Before the fix the child's class-loading log listed
 * JFR's {@code jdk.jfr.internal} classes, set up for the core's park event first.
 */
class NoRecordingLeavesJfrUnsetTest {

    @Test
    void runtimeTouchesNoEventClassWhileNoRecordingRuns() throws Exception {
        NoJfrSetUp.check(Child.class);
    }

    /** The child JVM: spawns from outside and inside, idle spells, a spawn after shutdown. */
    static final class Child {
        public static void main(String[] args) throws Exception {
            AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
            long sum = 0;
            for (int round = 0; round < 5; round++) {
                sum += rt.spawn(cx -> Poll.ready(1)).get(10, TimeUnit.SECONDS);
                JoinHandle<Integer> outer = rt.spawn(cx -> {
                    rt.spawn(Async.yieldNow());    // a spawn by a worker
                    return Poll.ready(2);
                });
                sum += outer.get(10, TimeUnit.SECONDS);
                Thread.sleep(20);                  // the workers park; the next round wakes them
            }
            rt.shutdown();
            try {
                rt.spawn(cx -> Poll.ready(3));
                throw new AssertionError("a spawn after shutdown was accepted");
            } catch (RejectedExecutionException expected) {
                // refused, as it must be: the event it may record is the point
            }
            System.out.println(NoJfrSetUp.DONE + " " + sum);
        }
    }
}
