/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * The types every Spindle scheduler shares: {@link dev.spindle.Scheduler} (an {@code Executor}
 * that takes {@link dev.spindle.Hints}), {@link dev.spindle.Task}, the one statistics shape
 * {@link dev.spindle.SchedulerStats}, and {@link dev.spindle.Spindle#blocking} for blocking
 * sections a pool compensates for.
 */
package dev.spindle;
