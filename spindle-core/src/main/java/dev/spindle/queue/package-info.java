/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * The lock-free queues under the pools: {@link dev.spindle.queue.WorkStealingDeque} (Chase-Lev,
 * owner at the bottom, thieves at the top) and {@link dev.spindle.queue.Injector} (an unbounded
 * MPMC FIFO of fixed segments). Neither ever loses or duplicates an element.
 */
package dev.spindle.queue;
