/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import dev.spindle.Hints;
import java.util.Objects;

/**
 * How an actor is run: its name, the {@link Hints} its activations carry to the scheduler, how
 * many messages it processes per activation, and its mailbox capacity. Immutable; build one
 * once and spawn as many actors with it as you like.
 *
 * <pre>{@code
 * ActorConfig config = ActorConfig.builder()
 *         .name("ingest")
 *         .priority(-1)                    // smaller is more urgent, on schedulers that order
 *         .schedulerIndex(1)               // the second member of a scheduler union
 *         .maxMessagesPerActivation(32)    // then yield the thread to other actors
 *         .mailboxCapacity(10_000)         // tell throws MailboxFullException beyond this
 *         .build();
 * ActorRef<Ingest> ingest = system.spawn(Ingest::new, config);
 * }</pre>
 *
 * <p>The priority and scheduler index are turned into one {@link Hints} instance when the
 * config is built ({@link #hints()}); an activation passes that same instance to
 * {@link dev.spindle.Scheduler#execute(Runnable, Hints)}, except that one an actor hands back
 * after a full activation ({@link #maxMessagesPerActivation()}) passes its
 * {@linkplain Hints#yielding() yielding} copy, made once per actor, so activating allocates
 * nothing.
 */
public final class ActorConfig {

    /** The mailbox capacity meaning "no bound": {@link Integer#MAX_VALUE}. */
    public static final int UNBOUNDED = Integer.MAX_VALUE;

    /**
     * No name (the system numbers the actor), priority 0, scheduler index 0, 100 messages per
     * activation, an unbounded mailbox.
     */
    public static final ActorConfig DEFAULT = builder().build();

    private final String name;
    private final int priority;
    private final int schedulerIndex;
    private final int maxMessagesPerActivation;
    private final int mailboxCapacity;
    private final Hints hints;

    private ActorConfig(Builder b) {
        this.name = b.name;
        this.priority = b.priority;
        this.schedulerIndex = b.schedulerIndex;
        this.maxMessagesPerActivation = b.maxMessagesPerActivation;
        this.mailboxCapacity = b.mailboxCapacity;
        this.hints = Hints.DEFAULT.withPriority(priority).withSchedulerIndex(schedulerIndex);
    }

    /** {@return a builder holding the defaults of {@link #DEFAULT}} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder holding this config's values, to derive another config} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.name = name;
        b.priority = priority;
        b.schedulerIndex = schedulerIndex;
        b.maxMessagesPerActivation = maxMessagesPerActivation;
        b.mailboxCapacity = mailboxCapacity;
        return b;
    }

    /** {@return the actor's name, or {@code null} to let the system number it} */
    public String name() {
        return name;
    }

    /** {@return the priority passed to the scheduler with each activation; smaller is more urgent} */
    public int priority() {
        return priority;
    }

    /** {@return the scheduler index passed to the scheduler with each activation} */
    public int schedulerIndex() {
        return schedulerIndex;
    }

    /** {@return the messages processed per activation before the actor yields its thread} At least 1. */
    public int maxMessagesPerActivation() {
        return maxMessagesPerActivation;
    }

    /** {@return the messages the mailbox holds, or {@link #UNBOUNDED}} */
    public int mailboxCapacity() {
        return mailboxCapacity;
    }

    /** {@return whether the mailbox has a bound} */
    public boolean isBounded() {
        return mailboxCapacity != UNBOUNDED;
    }

    /**
     * {@return the hints every activation carries: {@link #priority()} and {@link #schedulerIndex()}}
     * An activation handed back after a full one carries their {@linkplain Hints#yielding() yielding}
     * copy instead.
     */
    public Hints hints() {
        return hints;
    }

    @Override
    public String toString() {
        return "ActorConfig[name=" + name + ", priority=" + priority + ", schedulerIndex=" + schedulerIndex
                + ", maxMessagesPerActivation=" + maxMessagesPerActivation + ", mailboxCapacity="
                + (isBounded() ? Integer.toString(mailboxCapacity) : "unbounded") + "]";
    }

    /**
     * Builds an {@link ActorConfig}. Every setter checks its argument and throws
     * {@link IllegalArgumentException} naming the parameter when it is out of range.
     */
    public static final class Builder {
        private String name;
        private int priority;
        private int schedulerIndex;
        private int maxMessagesPerActivation = 100;
        private int mailboxCapacity = UNBOUNDED;

        private Builder() {
        }

        /**
         * The actor's name, used in exceptions and failure reports; not blank. Names need not
         * be unique. Default: {@code actor-<n>}, numbered by the system.
         *
         * @param name the name, not blank
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is blank
         * @throws NullPointerException if {@code name} is null
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Priority of the actor's activations; smaller is more urgent. Default 0.
         *
         * @param priority the priority, any {@code int}, read by priority-ordering schedulers
         * @return this builder
         */
        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        /**
         * Which member of a scheduler union runs the actor. Default 0.
         *
         * @param schedulerIndex the union member's index, at least 0 (a system on a
         *     {@link dev.spindle.pool.SchedulerUnion} refuses to spawn an actor with an index the
         *     union has no member for)
         * @return this builder
         * @throws IllegalArgumentException if {@code schedulerIndex} is negative
         */
        public Builder schedulerIndex(int schedulerIndex) {
            if (schedulerIndex < 0) {
                throw new IllegalArgumentException("schedulerIndex must be >= 0, was " + schedulerIndex);
            }
            this.schedulerIndex = schedulerIndex;
            return this;
        }

        /**
         * Messages processed per activation, at least 1. After that many the actor ends its
         * activation and, if messages remain, submits itself again, so other actors get the
         * thread. Default 100.
         *
         * @param max the messages per activation, at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code max} is below 1
         */
        public Builder maxMessagesPerActivation(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxMessagesPerActivation must be >= 1, was " + max);
            }
            this.maxMessagesPerActivation = max;
            return this;
        }

        /**
         * Messages the mailbox holds, at least 1, or {@link #UNBOUNDED} (the default). A
         * {@code tell} to a full mailbox throws {@link MailboxFullException}; an {@code ask}
         * returns a future failed with it. A bounded mailbox costs one more atomic operation per
         * message on each side.
         *
         * @param capacity the messages the mailbox holds, at least 1, or {@link #UNBOUNDED}
         * @return this builder
         * @throws IllegalArgumentException if {@code capacity} is below 1
         */
        public Builder mailboxCapacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("mailboxCapacity must be >= 1, was " + capacity);
            }
            this.mailboxCapacity = capacity;
            return this;
        }

        /** {@return the config, immutable} */
        public ActorConfig build() {
            return new ActorConfig(this);
        }
    }
}
