/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

/**
 * Implemented by scheduler workers that can compensate while their thread blocks. Not part of
 * the public API: the package is not exported.
 */
public interface BlockingSupport {

    /** Called on the worker's own thread before it blocks. */
    void beginBlocking();

    /** Called on the worker's own thread after the blocking section, even if it failed. */
    void endBlocking();

    /**
     * Whether this worker runs {@code scheduler}'s tasks. For code outside the scheduler's package
     * that must not wait for the scheduler on one of its own threads (an actor system closing the
     * pool it owns, called from an actor), as the pools' own {@code close()} does not.
     */
    default boolean serves(Object scheduler) {
        return false;
    }

    /** Binds {@code worker} to the calling thread; pass {@code null} to unbind. */
    static void bindCurrent(BlockingSupport worker) {
        Holder.CURRENT.set(worker);
        if (worker == null) {
            Holder.CURRENT.remove();
        }
    }

    /** Returns the worker bound to the calling thread, or {@code null}. */
    static BlockingSupport current() {
        return Holder.CURRENT.get();
    }

    /** Lazily created holder, so the interface has no state of its own. */
    final class Holder {
        static final ThreadLocal<BlockingSupport> CURRENT = new ThreadLocal<>();

        private Holder() {
        }
    }
}
