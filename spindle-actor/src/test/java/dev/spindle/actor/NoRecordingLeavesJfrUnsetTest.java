/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import dev.spindle.testkit.NoJfrSetUp;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * As the pools' test of the same name: a JVM that never records sets up no JFR on the actors'
 * account (each activation tests for its two events). Before the fix the child's class-loading
 * log listed JFR's {@code jdk.jfr.internal} classes, set up for the core's park event first.
 */
class NoRecordingLeavesJfrUnsetTest {

    @Test
    void actorsTouchNoEventClassWhileNoRecordingRuns() throws Exception {
        NoJfrSetUp.check(Child.class);
    }

    /** The child JVM: an actor's activations, each message asked for. */
    static final class Child {
        static final class Counter {
            int n;
        }

        public static void main(String[] args) throws Exception {
            int last = 0;
            try (ActorSystem system = ActorSystem.create()) {
                ActorRef<Counter> counter = system.spawn(Counter::new);
                for (int i = 0; i < 100; i++) {
                    counter.tell(c -> c.n++);
                    last = counter.ask(c -> c.n).get(10, TimeUnit.SECONDS);
                }
            }
            System.out.println(NoJfrSetUp.DONE + " " + last);
        }
    }
}
