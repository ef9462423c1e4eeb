/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Poll-based async tasks: {@link dev.spindle.async.AsyncTask}s woken through a
 * {@link dev.spindle.async.Waker} and run on an {@link dev.spindle.async.AsyncRuntime}; the
 * {@link dev.spindle.async.Async} combinators, timers, an async channel and semaphore.
 */
package dev.spindle.async;
