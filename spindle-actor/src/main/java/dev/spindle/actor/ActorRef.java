/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The handle of an actor: the only way to reach the object an {@link ActorSystem} wraps. Every
 * method is thread-safe and never blocks.
 *
 * <p>A message is a lambda run on the actor object. The system runs an actor's messages one at
 * a time, in the order each sender sent them, each seeing everything the previous ones wrote,
 * so the actor's own fields need no synchronisation. A message that leaves its thread
 * interrupted (restoring an {@code InterruptedException}, say) does not pass the interrupt on to
 * the actor's next message: the actor hands the thread back to its scheduler first, which treats
 * the interrupt as one any of its tasks left (Spindle's pools drop it, unless stopping).
 *
 * <pre>{@code
 * final class Counter {
 *     private long count;                       // plain field: only the actor touches it
 *     void add(long n) { count += n; }
 *     long get() { return count; }
 * }
 *
 * try (ActorSystem system = ActorSystem.create()) {
 *     ActorRef<Counter> counter = system.spawn(Counter::new);
 *     counter.tell(c -> c.add(5));                              // fire and forget
 *     long n = counter.ask(Counter::get).join();                // 5: the ask runs after the tell
 *     counter.stop();
 * }
 * }</pre>
 *
 * <p>Do not block an actor's thread on another actor's future (and never on its own: the actor
 * completes its own asks and its stop only after the code that waits, so {@code join()} or
 * {@code get()} of such a future not yet done, or of a stage made from it by its own methods
 * ({@code ask(f).thenApply(g)}), throws {@link IllegalStateException} on the thread running the
 * actor, its factory included, rather than hang it for good. A future the JDK makes of it
 * otherwise is a plain {@code CompletableFuture} that the check cannot see:
 * {@code CompletableFuture.allOf(ask)}, {@code anyOf}, or another future's
 * {@code thenCombine(ask, ...)} waited for there hangs the thread for good): compose instead,
 * and get back onto the actor with a {@code tell} to its own reference, which
 * {@link ActorSystem#spawnWithSelf(Function)} hands to the factory:
 *
 * <pre>{@code
 * final class Asker {
 *     private final ActorRef<Asker> self;
 *     private final ActorRef<Counter> counter;
 *     private long last;
 *     Asker(ActorRef<Asker> self, ActorRef<Counter> counter) { this.self = self; this.counter = counter; }
 *
 *     void refresh() {                          // runs on the asker; returns at once
 *         counter.ask(Counter::get).thenAccept(n -> self.tell(a -> a.last = n));
 *     }
 * }
 * ActorRef<Asker> asker = system.spawnWithSelf(self -> new Asker(self, counter));
 * }</pre>
 *
 * <p>On an actor whose mailbox is bounded, the {@code tell} in such a stage may throw
 * {@link MailboxFullException}; the stage keeps it in the future {@code thenAccept} returns, where
 * nobody looks, so the reply would be lost without a dead letter. Handle it there, for example
 * {@code .exceptionally(e -> { log(e); return null; })}, or retry later.
 *
 * <p>Instances compare by identity. The only implementation is the system's own.
 *
 * @param <A> the class of the actor object
 */
public sealed interface ActorRef<A> permits ActorCell {

    /**
     * Sends {@code message} to the actor: it will run on the actor object once, after the
     * messages this thread sent before, unless the actor stops first. An exception it throws goes
     * to the system's {@link FailureHandler}; the actor goes on. A message to a stopped actor is
     * counted as a dead letter ({@link ActorSystemStats#deadLetters()}) and dropped.
     *
     * <p>Costs one atomic exchange and, if the actor was idle, one compare-and-set and one
     * {@link dev.spindle.Scheduler#execute(Runnable, dev.spindle.Hints) execute}; allocates one
     * envelope.
     *
     * @param message runs once on the actor's object, on the actor's thread
     * @throws MailboxFullException if the actor's mailbox is bounded and full (the message is
     *     dropped and not counted); not once {@link #stop()} was called: the stop, which may
     *     itself fill the mailbox, is ahead of the message, which is a dead letter
     * @throws NullPointerException if {@code message} is null
     * @throws Error what the scheduler's {@code execute} threw when this call activated the actor
     *     (an {@code OutOfMemoryError} of a pool that cannot start a thread; a
     *     {@code StackOverflowError} of a sender at its stack's limit): the actor has then ended as
     *     rejected, and this message and those queued with it are dead letters (see
     *     {@link ActorSystem}, "Schedulers")
     */
    void tell(Consumer<? super A> message);

    /**
     * Sends {@code function} to the actor and returns a future of its result. The future
     * completes on the actor's thread, so dependent stages added with non-async methods run
     * there: keep them short (a {@code tell} back to the asking actor is the intended use). What
     * escapes from such a stage there (a failure whose {@code toString()} throws as the
     * {@code CompletableFuture} wraps it for the next stage) goes to the {@link FailureHandler};
     * the actor goes on.
     *
     * <p>The future fails with what {@code function} throws (the actor goes on, and the failure
     * handler is not called); with {@link ActorStoppedException} if the actor stops before the
     * message is processed, or had stopped; with {@link MailboxFullException} if the bounded
     * mailbox is full (with {@link ActorStoppedException} if it is full once {@link #stop()} was
     * called: the ask is then a dead letter, as {@link #tell tell} says).
     *
     * <p>An ask has no timeout of its own: bound the wait ({@code get(timeout, unit)}), which then
     * leaves the future to complete with the result, or give the future one
     * ({@code orTimeout}), which fails it with {@link java.util.concurrent.TimeoutException} for
     * good. Either way the function still runs in its turn, once, and is counted as processed, not
     * as a dead letter; a result that comes after the future's timeout is dropped.
     *
     * @param <R> the result type
     * @param function runs once on the actor's object, on the actor's thread; its result
     *     completes the future
     * @return a future of the function's result
     * @throws NullPointerException if {@code function} is null
     * @throws Error what the scheduler's {@code execute} threw when this call activated the actor,
     *     as for {@link #tell tell}: the actor has ended, and this ask's future, not returned, failed
     *     with {@link ActorStoppedException}
     */
    <R> CompletableFuture<R> ask(Function<? super A, ? extends R> function);

    /**
     * Asks the actor to stop. The stop is a message like any other: messages enqueued before it
     * are processed, and once it is processed the actor drops its object and every later message
     * is a dead letter (asks fail with {@link ActorStoppedException}). Idempotent; never blocks.
     *
     * @return a future that completes when the actor has stopped, once the messages queued
     *     behind the stop have been rejected: by then they are counted as dead letters and the
     *     futures of those that were asks have failed. (Their dependent stages run before it
     *     completes, on the thread that rejects them; {@code stop()} called there returns a
     *     completed future, but a future an earlier {@code stop()} returned cannot be waited
     *     on there: it is the actor's own, on its thread, and a wait throws
     *     {@link IllegalStateException}, as it does in the actor's messages.) It completes normally also when the
     *     actor ended because its scheduler rejected it. Each call returns a new future, so
     *     that what one caller does to its own ({@code orTimeout}, {@code cancel}, {@code complete})
     *     does not change what the others see
     */
    CompletableFuture<Void> stop();

    /**
     * Whether the actor has stopped: its stop was processed, its scheduler rejected it, or its
     * factory failed. {@link #stop()} returns before this becomes true.
     *
     * @return whether the actor has stopped
     */
    boolean isStopped();

    /** {@return the actor's name, from its {@link ActorConfig} or numbered by the system} */
    String name();
}
