/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A kit that misbehaves on purpose, around a working one: the {@code nth} message sent to the
 * {@code actor}-th actor spawned (counting from 0, through the address {@code spawn} returned) is
 * dropped, delivered twice, or makes the handler throw.
 */
final class FaultyKit implements ActorKit {

    enum Fault {
        DROP,
        DUPLICATE,
        THROW
    }

    private final ActorKit inner;
    private final Fault fault;
    private final int actor;
    private final int nth;
    private final AtomicInteger spawned = new AtomicInteger();

    FaultyKit(ActorKit inner, Fault fault, int actor, int nth) {
        this.inner = inner;
        this.fault = fault;
        this.actor = actor;
        this.nth = nth;
    }

    @Override
    public String id() {
        return inner.id() + "-" + fault.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour) {
        boolean target = spawned.getAndIncrement() == actor;
        if (target && fault == Fault.THROW) {
            AtomicInteger handled = new AtomicInteger();
            return inner.spawn(self -> {
                Handler<M> h = behaviour.apply(self);
                return m -> {
                    if (handled.incrementAndGet() == nth) {
                        throw new IllegalStateException("injected failure");
                    }
                    h.handle(m);
                };
            });
        }
        Addr<M> a = inner.spawn(behaviour);
        if (!target) {
            return a;
        }
        AtomicInteger sent = new AtomicInteger();
        return new Addr<M>() {
            @Override
            public void tell(M msg) {
                if (sent.incrementAndGet() != nth) {
                    a.tell(msg);
                } else if (fault == Fault.DUPLICATE) {
                    a.tell(msg);
                    a.tell(msg);
                }
            }

            @Override
            public void stop() {
                a.stop();
            }
        };
    }

    @Override
    public Throwable firstFailure() {
        return inner.firstFailure();
    }

    @Override
    public void close() {
        inner.close();
    }
}
