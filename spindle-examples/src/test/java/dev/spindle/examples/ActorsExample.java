/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.actor.*;

final class Counter {
    private long count;                            // plain field: only the actor touches it
    void add(long n) { count += n; }
    long get() { return count; }
}

/** README.md, "Actors". */
final class ActorsExample {
    private ActorsExample() {
    }

    static void run() {
        try (ActorSystem system = ActorSystem.create()) {  // owns a scheduler sized to the cores
            ActorRef<Counter> counter = system.spawn(Counter::new,
                    ActorConfig.builder().name("counter").maxMessagesPerActivation(50).build());
            counter.tell(c -> c.add(5));                   // fire and forget
            long n = counter.ask(Counter::get).join();     // 5: one sender's messages stay in order
            counter.stop();                                // earlier messages run, later ones are dead letters
        }
    }
}
