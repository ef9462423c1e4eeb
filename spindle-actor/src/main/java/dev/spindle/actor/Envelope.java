/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A message in a mailbox, and at the same time the mailbox's queue node: the mailbox is an
 * intrusive linked list of envelopes, so sending a message allocates the envelope and nothing
 * else. See {@link ActorCell} for the queue protocol.
 *
 * <p>{@link #next} is written once by the producer that links the following envelope (a
 * release store, {@link #soNext}) and read by the consumer ({@link #lvNext}); the consumer
 * clears it once it has moved past the envelope, so that a promoted envelope does not keep a
 * young one alive.
 */
abstract class Envelope {

    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(Envelope.class, "next", Envelope.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private Envelope next;

    final Envelope lvNext() {
        return (Envelope) NEXT.getVolatile(this);
    }

    final void soNext(Envelope n) {
        NEXT.setRelease(this, n);
    }

    final void spNext(Envelope n) {
        NEXT.set(this, n);
    }

    /** Runs the message on {@code actor}, on the actor's thread. Never throws. */
    abstract void deliver(Object actor, ActorCell<?> cell);

    /** The actor will not process this message: count it as a dead letter, fail its future. */
    abstract void reject(ActorCell<?> cell);

    /**
     * The cell's own code threw {@code failure} after this envelope was taken from the mailbox:
     * if it was not delivered yet (its payload still set), it never will be, and its sender is
     * told by {@code failure} (an ask's future fails with it; a tell's goes to the failure handler
     * with it, by the caller). A stop is finished by the caller.
     */
    void abandon(ActorCell<?> cell, Throwable failure) {
    }

    /** A {@code tell}: a consumer of the actor object; failures go to the failure handler. */
    static final class Tell extends Envelope {
        private Consumer<Object> message;

        @SuppressWarnings("unchecked")
        Tell(Consumer<?> message) {
            this.message = (Consumer<Object>) message;
        }

        @Override
        void deliver(Object actor, ActorCell<?> cell) {
            Consumer<Object> m = message;
            message = null;                 // the envelope stays the queue's head until the next poll
            try {
                m.accept(actor);
            } catch (Throwable t) {
                cell.reportFailure(t);
            }
        }

        @Override
        void reject(ActorCell<?> cell) {
            message = null;
            cell.system.deadLetter();
        }

        @Override
        void abandon(ActorCell<?> cell, Throwable failure) {
            message = null;
        }
    }

    /** An {@code ask}: a function of the actor object whose result completes a future. */
    static final class Ask extends Envelope {
        private Function<Object, ?> function;
        private CompletableFuture<Object> future;

        @SuppressWarnings("unchecked")
        Ask(Function<?, ?> function, CompletableFuture<?> future) {
            this.function = (Function<Object, ?>) function;
            this.future = (CompletableFuture<Object>) future;
        }

        @Override
        void deliver(Object actor, ActorCell<?> cell) {
            Function<Object, ?> f = function;
            CompletableFuture<Object> result = future;
            function = null;
            future = null;
            Object value;
            try {
                value = f.apply(actor);
            } catch (Throwable t) {
                cell.settle(result, null, t);
                return;
            }
            cell.settle(result, value, null);
        }

        @Override
        void reject(ActorCell<?> cell) {
            CompletableFuture<Object> result = future;
            function = null;
            future = null;
            Throwable why;
            boolean counted = false;
            try {
                cell.system.deadLetter();
                counted = true;
                why = cell.stoppedException();
            } catch (Throwable failed) {
                // The fields are cleared: thrown on (an OutOfMemoryError building the exception),
                // the asker was never told. It is told by what was thrown instead. A count that
                // threw (a stack overflow at its call, the actor ending deep in a sender's stack)
                // is made here by a store, no call, as the rejecting loop does for a tell's (see
                // ActorSystem.deadLettersUncounted): caught here, the loop never saw it, and the
                // ask was counted nowhere
                if (!counted) {
                    cell.system.deadLettersUncounted++;
                }
                why = failed;
            }
            cell.settle(result, null, why);
        }

        @Override
        void abandon(ActorCell<?> cell, Throwable failure) {
            CompletableFuture<Object> result = future;
            if (result != null) {
                function = null;
                future = null;
                cell.settle(result, null, failure);
            }
        }
    }

    /** A {@code stop}: ends the actor once the messages before it are processed. */
    static final class Stop extends Envelope {
        /** Ends the actor and gives up the activation: the caller's activation is over. */
        @Override
        void deliver(Object actor, ActorCell<?> cell) {
            cell.terminate(ActorCell.STOPPED, null);
        }

        @Override
        void reject(ActorCell<?> cell) {
            // the actor has already ended, and its termination future is complete
        }
    }
}
