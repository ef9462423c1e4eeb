/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * One entry of the scheduler's task log: a task a worker ran to its end, as the scheduler learnt
 * it. The scheduler sees the report arrive, not the run: {@code endNanos} is when the report was
 * handled (after the transport's latency), {@code startNanos} that minus the run time the worker
 * measured. Only runs that count are logged: a report for an attempt that no longer applies (its
 * worker lost, the task stolen meanwhile) is not.
 *
 * @param seq the entry's number, from 1, one more per entry (so a reader can tell which it has seen)
 * @param key the task's key
 * @param worker the worker that ran it
 * @param startNanos when it started, on {@link System#nanoTime()}'s scale of the scheduler's JVM
 * @param endNanos when its end was handled, on the same scale
 * @param failed whether it threw (it may be retried, under the same key)
 */
public record TaskEvent(long seq, String key, int worker, long startNanos, long endNanos, boolean failed) {
}
