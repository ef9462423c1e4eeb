/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * A steal proposed by {@link Balancer#balance}: move {@code key} from {@code victim} to
 * {@code thief}.
 *
 * @param key the task
 * @param victim where it is assigned now
 * @param thief where it should go
 * @param level its cost level (lower is cheaper to move)
 */
record Move(String key, int victim, int thief, int level) {
}
