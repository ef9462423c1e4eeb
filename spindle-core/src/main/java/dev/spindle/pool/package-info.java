/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * The schedulers: {@link dev.spindle.pool.WorkStealingPool} (fork/join with per-worker
 * Chase-Lev deques, {@link dev.spindle.pool.ComputeTask}, {@code parallelFor}, blocking sections
 * with spare workers), {@link dev.spindle.pool.WorkSharingPool}, {@link dev.spindle.pool.PriorityPool},
 * {@link dev.spindle.pool.PinnedPool} and {@link dev.spindle.pool.SchedulerUnion}. Every pool is
 * an {@code ExecutorService} with the same lifecycle and the same {@code stats()} shape.
 */
package dev.spindle.pool;
