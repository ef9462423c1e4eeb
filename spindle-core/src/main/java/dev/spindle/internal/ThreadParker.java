/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import dev.spindle.internal.jfr.JfrGate;
import dev.spindle.internal.jfr.WorkerParkEvent;
import dev.spindle.internal.jfr.WorkerUnparkEvent;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * The {@link Parker} on {@link LockSupport} that every pool and the async runtime use. It is
 * also where worker sleeps and wake-ups reach the flight recorder ({@code dev.spindle.WorkerPark},
 * {@code dev.spindle.WorkerUnpark}): each method tests its event's static {@code enabled()} first,
 * which is a constant {@code false} while no recording asks for the event, so parking costs
 * what it did without events.
 */
final class ThreadParker implements Parker {

    private final Object blocker;
    private final String scheduler;
    private final IntFunction<Thread> threadOf;

    ThreadParker(Object blocker, String scheduler, IntFunction<Thread> threadOf) {
        this.blocker = blocker;
        this.scheduler = scheduler;
        this.threadOf = threadOf;
    }

    @Override
    public void park(int worker) {
        if (!JfrGate.open() || !WorkerParkEvent.enabled()) {
            LockSupport.park(blocker);
            return;
        }
        WorkerParkEvent e = WorkerParkEvent.begin(scheduler, worker, 0);
        LockSupport.park(blocker);
        e.parked();
    }

    @Override
    public void parkNanos(int worker, long nanos) {
        if (!JfrGate.open() || !WorkerParkEvent.enabled()) {
            LockSupport.parkNanos(blocker, nanos);
            return;
        }
        WorkerParkEvent e = WorkerParkEvent.begin(scheduler, worker, nanos);
        LockSupport.parkNanos(blocker, nanos);
        e.parked();
    }

    @Override
    public void unpark(int worker) {
        if (JfrGate.open() && WorkerUnparkEvent.enabled()) {
            WorkerUnparkEvent.emit(scheduler, worker);
        }
        LockSupport.unpark(threadOf.apply(worker));
    }
}
