/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Not public API: the hook between {@code Spindle.blocking} and the pools, and the pools' idle
 * protocol ({@code IdleCoordinator}, {@code Parker}), shared with the async runtime. Exported
 * only to {@code dev.spindle.async}.
 */
package dev.spindle.internal;
