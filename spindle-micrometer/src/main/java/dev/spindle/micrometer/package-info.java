/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Micrometer meters for Spindle: {@link dev.spindle.micrometer.SchedulerMetrics} for the pools,
 * unions and the async runtime, {@link dev.spindle.micrometer.ActorSystemMetrics} and
 * {@link dev.spindle.micrometer.ClusterMetrics}. Every meter is a Micrometer
 * {@code FunctionCounter} or {@code Gauge} that reads the monitored object's {@code stats()}
 * snapshot when the registry asks; nothing is counted twice and nothing runs on Spindle's hot
 * paths.
 */
package dev.spindle.micrometer;
