/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * The lock-free queues under the pools: {@link dev.spindle.queue.WorkStealingDeque} (Chase-Lev,
 * owner at the bottom, thieves at the top) and {@link dev.spindle.queue.Injector} (an unbounded
 * MPMC FIFO of fixed segments). Neither ever loses or duplicates an element. Beside them,
 * {@link dev.spindle.queue.ForkStack}: a small owner-only LIFO of the newest forked tasks that
 * other threads may read but not change, for elements that claim themselves (each decides by its
 * own CAS who runs it), so its owner needs no fence.
 */
package dev.spindle.queue;
