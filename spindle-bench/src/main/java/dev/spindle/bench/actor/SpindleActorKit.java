/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import dev.spindle.Scheduler;
import dev.spindle.actor.ActorConfig;
import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The kit on Spindle's actors: an actor object holding the workload's handler;
 * {@code tell(m)} = {@code ref.tell(a -> a.handle(m))}. The scheduler is the kit's own and is
 * closed after the actor system.
 */
public final class SpindleActorKit implements ActorKit {

    /** Messages per activation, as Pekko's throughput; 100 is spindle-actor's default. */
    static final int MAX_MESSAGES_PER_ACTIVATION = 100;

    private final String id;
    private final AutoCloseable pool;
    private final ActorSystem system;
    private final ActorConfig config;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    SpindleActorKit(String id, Scheduler scheduler, AutoCloseable owner, int maxMessagesPerActivation) {
        this.id = id;
        this.pool = owner;
        this.system = ActorSystem.create(scheduler);
        this.config = ActorConfig.builder().maxMessagesPerActivation(maxMessagesPerActivation).build();
    }

    /** Spindle actors on a WorkStealingPool of {@code workers} threads. */
    public static SpindleActorKit workStealing(int workers) {
        WorkStealingPool p = WorkStealingPool.builder().workers(workers).name("spindle-ws").build();
        return new SpindleActorKit("spindle-ws", p, p, MAX_MESSAGES_PER_ACTIVATION);
    }

    /** Spindle actors on a WorkSharingPool of {@code workers} threads. */
    public static SpindleActorKit workSharing(int workers) {
        WorkSharingPool p = WorkSharingPool.builder().workers(workers).name("spindle-wsh").build();
        return new SpindleActorKit("spindle-wsh", p, p, MAX_MESSAGES_PER_ACTIVATION);
    }

    @Override
    public String id() {
        return id;
    }

    /** The actor object: holds the workload's handler, built by the spawn factory. */
    static final class Cell<M> {
        private final SpindleActorKit kit;
        private final Handler<M> handler;

        Cell(SpindleActorKit kit, Handler<M> handler) {
            this.kit = kit;
            this.handler = handler;
        }

        void handle(M msg) {
            try {
                handler.handle(msg);
            } catch (RuntimeException | Error e) {
                kit.failure.compareAndSet(null, e);
            }
        }
    }

    @Override
    public <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour) {
        // The factory runs in spawn, on this thread, with the actor's own ref: the behaviour
        // gets its address before the actor takes any message.
        ActorRef<Cell<M>> ref = system.spawnWithSelf((ActorRef<Cell<M>> self) ->
                new Cell<M>(this, behaviour.apply(new SpindleAddr<>(self))), config);
        return new SpindleAddr<>(ref);
    }

    /** A tell is one message lambda run against the actor object. */
    private record SpindleAddr<M>(ActorRef<Cell<M>> ref) implements Addr<M> {
        @Override
        public void tell(M msg) {
            ref.tell(a -> a.handle(msg));
        }

        @Override
        public void stop() {
            ref.stop();
        }
    }

    @Override
    public Throwable firstFailure() {
        return failure.get();
    }

    @Override
    public void close() {
        system.close();
        try {
            pool.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing the pool of " + id, e);
        }
    }
}
