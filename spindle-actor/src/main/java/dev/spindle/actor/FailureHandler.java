/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import java.io.PrintStream;

/**
 * Receives the exceptions thrown by messages sent with {@link ActorRef#tell tell}. (A failing
 * {@link ActorRef#ask ask} function fails its future instead.) The actor goes on with its next
 * message either way. It also receives what the scheduler threw when it refused an activation,
 * but for a {@code RejectedExecutionException} (a scheduler shut down): the actor has then ended,
 * its waiting messages dead letters. That is anything it threw when an actor handed itself back
 * to it after a full activation ({@link ActorConfig#maxMessagesPerActivation()}), with no sender
 * to pass it to, and any exception but an {@code Error} (which the sender gets) when a sender's
 * message, a stop or a spawn activated the actor; the handler then runs on that thread. Otherwise
 * the handler runs on the actor's thread, inside its activation. It also receives an
 * {@code Error} that the actor's own machinery threw in an activation (a
 * {@code StackOverflowError} in an activation run deep in another task's stack, an
 * {@code OutOfMemoryError}): the actor goes on (or finishes its stop), and a message it had taken
 * but not yet run fails with that error (an ask's future) or goes with this report (a tell). An
 * exception it throws does not reach the actor, which goes on (or ends) as it would have: it goes
 * to the uncaught-exception handler of the thread the handler ran on, with the failure it was
 * handling {@linkplain Throwable#addSuppressed suppressed} in it (the failure alone if the handler
 * rethrew it), so that neither is lost.
 *
 * <pre>{@code
 * ActorSystem system = ActorSystem.builder()
 *         .failureHandler((actor, failure) -> log.warn("actor {} failed", actor.name(), failure))
 *         .build();
 * }</pre>
 */
@FunctionalInterface
public interface FailureHandler {

    /**
     * Called with the actor whose message threw and what it threw, on the actor's thread (with
     * what a scheduler threw, on the thread whose activation it refused: see above).
     *
     * @param actor the actor whose message failed
     * @param failure what the message threw, or what the scheduler threw
     */
    void onFailure(ActorRef<?> actor, Throwable failure);

    /**
     * The default handler: prints the actor's name and the stack trace to {@link System#err}.
     * (Chosen over the thread's uncaught-exception handler because it names the actor.) A failure
     * whose {@code toString()}, or a cause's, throws (a {@code getMessage()} reading a field never
     * set, say) is printed by its class name and its frames instead.
     *
     * @return the printing handler
     */
    static FailureHandler printing() {
        return (actor, failure) -> {
            PrintStream err = System.err;
            synchronized (err) {
                err.println("[spindle-actor] message to actor '" + actor.name() + "' failed:");
                try {
                    failure.printStackTrace(err);
                } catch (RuntimeException | Error e) {
                    // printStackTrace prints each throwable's toString(), the application's code:
                    // thrown out of the handler, it was ignored, and the failure was lost with
                    // only the line above printed
                    err.println(failure.getClass().getName() + " (printing its stack trace stopped:"
                            + " a toString() threw " + e.getClass().getName() + ")");
                    for (StackTraceElement frame : failure.getStackTrace()) {
                        err.println("\tat " + frame);
                    }
                }
            }
        };
    }
}
