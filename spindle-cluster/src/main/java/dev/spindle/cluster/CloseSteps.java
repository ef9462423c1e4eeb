/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * Runs the steps of a member's close, every one of them, also those after a step that throws.
 * A cluster transport's close stops Spindle's side (a scheduler, a worker's pool), then its
 * transport, then the member itself (an actor system, a Hazelcast instance); run one after the
 * other, a step that threw (an {@code Error}, say an {@code OutOfMemoryError} from a pool's
 * shutdown) skipped the rest, and the member stayed in its cluster with nothing behind it: a worker
 * took tasks and dropped them, a coordinator's workers, which leave with their coordinator, ran on.
 * The transports (spindle-cluster-hazelcast, spindle-cluster-pekko) share this one mechanism.
 *
 * <pre>{@code
 * public void close() {
 *     CloseSteps.closeAll(node::close, transport::close, instance::shutdown);
 * }
 * }</pre>
 */
public final class CloseSteps {

    private CloseSteps() {
    }

    /**
     * Runs every step, in order, whatever the steps before it threw.
     *
     * @param steps the steps
     * @return the first throwable a step threw, the later ones {@linkplain Throwable#addSuppressed
     *     suppressed} in it; {@code null} if none threw
     * @throws NullPointerException if {@code steps} or one of them is null (before any step runs)
     */
    public static Throwable runAll(Runnable... steps) {
        java.util.Objects.requireNonNull(steps, "steps");
        for (int i = 0; i < steps.length; i++) {
            java.util.Objects.requireNonNull(steps[i], "close step " + i + " is null");
        }
        Throwable first = null;
        for (Runnable step : steps) {
            try {
                step.run();
            } catch (Throwable t) {
                if (first == null) {
                    first = t;
                } else if (t != first) {
                    first.addSuppressed(t);
                }
            }
        }
        return first;
    }

    /**
     * Throws what {@link #runAll} returned, if anything: an {@code Error} or a
     * {@code RuntimeException}, all that a {@code Runnable} throws.
     *
     * @param failed the first throwable of a close, or {@code null}
     */
    public static void rethrow(Throwable failed) {
        if (failed instanceof Error error) {
            throw error;
        }
        if (failed != null) {
            throw (RuntimeException) failed;
        }
    }

    /**
     * {@link #runAll} the steps, then {@link #rethrow} the first throwable.
     *
     * @param steps the steps
     * @throws NullPointerException if {@code steps} or one of them is null (before any step runs)
     */
    public static void closeAll(Runnable... steps) {
        rethrow(runAll(steps));
    }
}
