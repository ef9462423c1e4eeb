/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * One entry of the scheduler's steal log.
 *
 * @param stealId the unique id of the steal request
 * @param key the task's key
 * @param victim the worker the task was taken from
 * @param thief the worker it was moved to; -1 in a {@link Outcome#STALE STALE} entry for a steal
 *     the scheduler no longer tracks (its reply came after the steal had ended)
 * @param level the cost level, 0 (free to move) to 14 (most expensive still allowed); -1 where
 *     {@code thief} is
 * @param outcome what happened
 * @param nanoTime when, on {@link System#nanoTime()}'s scale
 */
public record StealEvent(long stealId, String key, int victim, int thief, int level, Outcome outcome, long nanoTime) {

    /** The life of a steal request. */
    public enum Outcome {
        /** The scheduler asked the victim to release the task. */
        REQUESTED,
        /** The victim released it before it started; it was sent to the thief. */
        CONFIRMED,
        /** The task had already started or finished on the victim; nothing moved. */
        REJECTED,
        /** A reply for a steal that no longer applies (task finished, worker lost); ignored. */
        STALE
    }

    @Override
    public String toString() {
        return "steal#" + stealId + " " + key + " " + victim + "->" + thief + " level " + level + " " + outcome;
    }
}
