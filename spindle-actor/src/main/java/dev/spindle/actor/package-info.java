/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Actors on any {@link dev.spindle.Scheduler}: a plain object behind a lock-free mailbox,
 * activated on the scheduler when its first message arrives, running its messages one at a
 * time.
 *
 * <ul>
 *   <li>{@link dev.spindle.actor.ActorSystem} spawns actors and owns (or borrows) the scheduler;
 *   <li>{@link dev.spindle.actor.ActorRef} sends {@code tell} and {@code ask} messages and stops
 *       the actor;
 *   <li>{@link dev.spindle.actor.ActorConfig} sets the name, the scheduler hints (priority,
 *       scheduler index), the messages per activation and the mailbox bound.
 * </ul>
 *
 * <pre>{@code
 * final class Account {
 *     private long balance;                                   // plain field, owned by the actor
 *     void deposit(long amount) { balance += amount; }
 *     long balance() { return balance; }
 * }
 *
 * try (ActorSystem system = ActorSystem.create()) {
 *     ActorRef<Account> account = system.spawn(Account::new,
 *             ActorConfig.builder().name("account").maxMessagesPerActivation(50).build());
 *     for (int i = 0; i < 1_000; i++) {
 *         account.tell(a -> a.deposit(1));
 *     }
 *     System.out.println(account.ask(Account::balance).join()); // 1000
 * }
 * }</pre>
 *
 * <p>Guarantees: at most one thread runs an actor at a time, and each message happens-before
 * the next, so the actor's fields need no locks; messages from one sender are processed in the
 * order sent; every message is processed exactly once or, if the actor stopped first, counted
 * as a dead letter (a failed future for an {@code ask}). Nothing blocks: actors compose
 * futures and come back to themselves with a {@code tell} to their own reference (see
 * {@link dev.spindle.actor.ActorSystem#spawnWithSelf(java.util.function.Function)}).
 */
package dev.spindle.actor;
