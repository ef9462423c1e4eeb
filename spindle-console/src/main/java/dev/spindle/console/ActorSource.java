/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import dev.spindle.actor.ActorSystem;
import dev.spindle.actor.ActorSystemStats;

/**
 * An actor system, read through {@link ActorSystem#stats()}: messages and dead letters (totals
 * and per second) and live actors; and its {@link #MAILBOXES} deepest mailboxes
 * ({@link ActorSystem#deepestMailboxes}, each unbounded one counted up to
 * {@link ActorSystem#MAILBOX_COUNT_LIMIT}). Its scheduler can be registered as a scheduler of its
 * own.
 */
final class ActorSource extends Source {

    /** Mailboxes sent per sample: the deepest. */
    static final int MAILBOXES = 5;

    private final ActorSystem system;
    /**
     * The read's start and counts the rates start from: those of the last sample {@linkplain #delivered()
     * delivered}, as {@code SchedulerSource} keeps them (a read given up on as stuck returns late
     * with the counts of then, under its sample's earlier time); {@code taken*}, this sample's
     * until it is.
     */
    private long lastNanos = -1;
    private long lastMessages = -1;
    private long lastDead = -1;
    private boolean taken;
    private long takenNanos;
    private long takenMessages;
    private long takenDead;

    ActorSource(String name, ActorSystem system) {
        super(name);
        this.system = system;
    }

    @Override
    void sample(StringBuilder sb, long nanos, long readNanos, ThreadCpu cpu) {
        ActorSystemStats s = system.stats();
        long elapsed = lastNanos < 0 ? 0 : readNanos - lastNanos;
        begin(sb, "actors");
        Json.field(sb, "messages", s.messagesProcessed());
        Json.field(sb, "deadLetters", s.deadLetters());
        Json.field(sb, "liveActors", s.liveActors());
        Json.field(sb, "messagesPerSec", Source.rate(s.messagesProcessed(), lastMessages, elapsed));
        Json.field(sb, "deadLettersPerSec", Source.rate(s.deadLetters(), lastDead, elapsed));
        Json.array(sb, "mailboxes", system.deepestMailboxes(MAILBOXES), (o, m) -> {
            Json.field(o, "actor", clip(m.actor()));
            Json.field(o, "depth", m.depth());
            Json.key(o, "capped").append(m.capped()).append(',');
        });
        Json.close(sb, '}');
        taken = true;
        takenNanos = readNanos;
        takenMessages = s.messagesProcessed();
        takenDead = s.deadLetters();
    }

    @Override
    void delivered() {
        if (taken) {
            lastNanos = takenNanos;
            lastMessages = takenMessages;
            lastDead = takenDead;
            taken = false;
        }
    }
}
