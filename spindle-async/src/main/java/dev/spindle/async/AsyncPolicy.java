/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

/**
 * An {@link AsyncRuntime}'s scheduling policy: how its workers choose the next task. Set with
 * {@link AsyncRuntime.Builder#policy}.
 *
 * <pre>{@code
 * try (AsyncRuntime rt = AsyncRuntime.builder().policy(AsyncPolicy.HYBRID).build()) {
 *     rt.run(cx -> Poll.ready("hello"));
 * }
 * }</pre>
 */
public enum AsyncPolicy {

    /**
     * Each worker runs its local deque newest-first (tasks spawned on it), then the wake-ups
     * sent to it, oldest first, then the shared injector; an idle worker steals from its peers'
     * deques and wake channels. A task woken or spawned by the task a worker runs goes into that
     * worker's one-task LIFO slot and runs right after it (at most 3 times in a row, so the
     * queues still get their turn); of several tasks spawned in one poll, the first keeps the
     * slot and the rest go to the deque.
     */
    WORK_STEALING,

    /**
     * As {@link #WORK_STEALING}, but each worker keeps woken tasks in a private "hot" priority
     * queue that runs the task woken most often while it waited first (first-come first among
     * equals; a task's own yields do not count); newly
     * spawned tasks wait in the stealable "cold" deque, which is drawn from only when the hot
     * queue is empty. Tasks that have had to wait many times are thereby favoured, which cuts the
     * tail of completion times under contention. The hot queue is refilled from the worker's
     * wake-ups only when it is empty, so the priority applies within each batch of wake-ups and
     * no task waits longer than one batch. Tasks that yielded get a turn after each pick from
     * the hot queue: a yield usually interrupts work in progress (maybe holding what others
     * wait for), so it is resumed soon.
     */
    HYBRID
}
