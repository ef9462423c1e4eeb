/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

/**
 * How many messages wait in one actor's mailbox, as {@link ActorSystem#deepestMailboxes} read
 * it while the actor runs: an estimate.
 *
 * <p>A bounded mailbox keeps its size anyway, and that count is reported. An unbounded one keeps
 * none (a counter would cost every send an atomic add), so its links are counted from the head,
 * at most {@link ActorSystem#MAILBOX_COUNT_LIMIT} of them: {@code capped} then says that at least
 * that many were waiting.
 *
 * @param actor the actor's name
 * @param depth the messages waiting: for a bounded mailbox its size, which counts a message as
 *     soon as its sender has taken room for it, and counts a {@code stop()} waiting behind the
 *     messages, which ignores the bound (so it can read one more than {@code capacity}); for an
 *     unbounded one the messages linked so far (one whose sender is between enqueuing and
 *     linking it is not counted yet)
 * @param capped whether counting stopped at {@link ActorSystem#MAILBOX_COUNT_LIMIT} (unbounded
 *     mailboxes only): at least {@code depth} were waiting
 * @param capacity the mailbox's bound; {@link ActorConfig#UNBOUNDED} when it has none
 */
public record MailboxDepth(String actor, long depth, boolean capped, int capacity) {
}
