/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import java.util.function.Function;

/**
 * spindle-bench/README.md, "Actors": the shape of the benchmark's actor abstraction, as nested
 * types (the real ones are in {@code dev.spindle.bench.actor}).
 */
final class ActorKitShape {
    private ActorKitShape() {
    }

    public interface ActorKit extends AutoCloseable {
        String id();
        <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour);   // behaviour gets the actor's own address
        Throwable firstFailure();                                     // first exception a handler threw, or null
        void close();
    }
    public interface Addr<M> { void tell(M msg); void stop(); }
    @FunctionalInterface public interface Handler<M> { void handle(M msg); }
}
