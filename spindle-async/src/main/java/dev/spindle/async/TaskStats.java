/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * One live task's poll statistics, as {@link AsyncRuntime#busiestTasks} read them: racy, since
 * the task's worker may be polling it meanwhile (a count may be one poll behind its total).
 *
 * @param id the task's id, the same as in the {@code dev.spindle.LongPoll} flight recorder event
 * @param taskClass the class name of the spawned {@link AsyncTask}
 * @param spawnSite where the task was spawned (the first frame outside the runtime), or
 *     {@code null} if it was spawned before statistics were enabled
 * @param state what the task is doing now
 * @param polls how many times it was polled since statistics were on for it
 * @param totalPollNanos the time those polls took, in nanoseconds
 * @param longestPollNanos the longest of them, in nanoseconds
 * @param wakes how many times its waker fired (see {@link JoinHandle#wakeCount()}), counted
 *     whether or not statistics are on
 */
public record TaskStats(long id, String taskClass, String spawnSite, State state, long polls,
        long totalPollNanos, long longestPollNanos, long wakes) {

    /** What a live task is doing. */
    public enum State {
        /** Waiting in a queue for a worker. */
        SCHEDULED,
        /** Being polled by a worker now. */
        RUNNING,
        /** Pending, waiting for its waker. */
        IDLE
    }

    /**
     * The mean poll time in nanoseconds; 0 before the first poll.
     *
     * @return the total poll time divided by the number of polls, in nanoseconds
     */
    public long meanPollNanos() {
        return polls == 0 ? 0 : totalPollNanos / polls;
    }
}
