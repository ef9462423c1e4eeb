/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * How {@link IdleCoordinator} blocks and unblocks a worker, by index. The coordinator decides
 * <em>whether</em> a worker sleeps and whom to wake; a parker only does the sleeping, so a worker
 * can sleep on something other than {@link LockSupport} (an NIO {@code Selector}, say) without
 * another copy of the protocol.
 *
 * <p>Contract, as for {@link LockSupport}: {@link #unpark} before {@link #park} makes that park
 * return at once (or the next one, at the latest); {@code park} may also return spuriously. The
 * coordinator therefore waits in a loop on its own flag, and needs nothing stronger.
 *
 * <p>Besides {@link #ofThreads}, spindle-async's {@code DrivingParker} lets an idle worker of an
 * async runtime sleep inside an NIO {@code Selector} (one worker per selector) and routes an
 * unpark of that worker to {@code selector.wakeup()}; such a worker, finding events, takes
 * itself off the coordinator's stack with {@link IdleCoordinator#wakeSelf}.
 */
public interface Parker {

    /** Blocks the calling thread, worker {@code worker}, until unparked (or spuriously). */
    void park(int worker);

    /** As {@link #park}, for at most {@code nanos} nanoseconds. */
    void parkNanos(int worker, long nanos);

    /** Makes worker {@code worker}'s current or next {@link #park} return. */
    void unpark(int worker);

    /**
     * A parker on {@link LockSupport}, finding each worker's thread with {@code threadOf}; it
     * reports each sleep and wake-up to the flight recorder, under {@code scheduler}'s name, when
     * a recording asks for it ({@link ThreadParker}).
     */
    static Parker ofThreads(Object blocker, String scheduler, IntFunction<Thread> threadOf) {
        return new ThreadParker(blocker, scheduler, threadOf);
    }
}
