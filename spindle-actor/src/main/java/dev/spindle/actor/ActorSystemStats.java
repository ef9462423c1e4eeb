/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

/**
 * A snapshot of an {@link ActorSystem}'s counters; exact once the system is quiet (no message in
 * flight), approximate while actors run.
 *
 * @param messagesProcessed messages ({@code tell} and {@code ask}) delivered to actors, those that
 *     threw included
 * @param deadLetters messages ({@code tell} and {@code ask}) not delivered because their actor had
 *     stopped, failed to start, or lost its scheduler
 * @param liveActors actors spawned and not yet stopped; an actor whose end was being counted as
 *     the snapshot was taken counts as live in it, so that a snapshot with no live actor has the
 *     exact {@code messagesProcessed} (once no message is in flight)
 */
public record ActorSystemStats(long messagesProcessed, long deadLetters, int liveActors) {
}
