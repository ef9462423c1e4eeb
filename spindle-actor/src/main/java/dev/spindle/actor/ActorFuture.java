/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import dev.spindle.internal.Strays;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A future only an actor's own thread completes: an {@link ActorRef#ask ask}'s result or the
 * actor's termination ({@link ActorRef#stop()}'s copies), and the stages made from either.
 *
 * <p>Waited for on the thread that runs the actor's code now (a message, its factory, or the
 * rejection of what its stop left queued) while the future is not done, it would never be done:
 * the ask runs, or the stop is processed, only after the code that waits, on the very thread that
 * waits. Such a wait ({@link #join()}, {@link #get()}, {@link #get(long, TimeUnit)}) throws
 * {@link IllegalStateException} naming the actor instead of hanging the worker for good. Anywhere
 * else it is a plain {@link CompletableFuture}, and the check costs nothing outside a blocking
 * wait.
 *
 * <p>A failure whose {@code toString()} throws (the application's, from an ask's function) is
 * reported by {@code get} and {@code join} in their own exception, with the failure as its cause:
 * the JDK makes that exception with the cause constructor, which calls the {@code toString()}, and
 * the waiter got what that threw instead, the failure lost.
 *
 * <p>A stage made from such a future ({@link #newIncompleteFuture}) keeps the check while the
 * future it was made from (the {@link #root}) is not done: until then the stage cannot be done
 * either, unless another source completes it (an {@code applyToEither}, or the user's own
 * {@code complete}). Once the root is done the stage waits as any future does, since what it waits
 * for next (a {@code thenCompose} into another actor, say) may well complete. A future made of it
 * by anything but its own methods is beyond the check: {@code CompletableFuture.allOf} and
 * {@code anyOf} make plain futures, and so does {@code thenCombine} called on a plain future with
 * this one as the other (a wait for one of those on the actor's thread hangs, as
 * {@link ActorRef} warns).
 *
 * @param <T> the result type
 */
final class ActorFuture<T> extends CompletableFuture<T> {

    /** The actor whose thread completes {@link #root}. */
    private final ActorCell<?> cell;
    /** This future, or the ask or termination this stage was made from. */
    private final ActorFuture<?> root;

    ActorFuture(ActorCell<?> cell) {
        this.cell = cell;
        this.root = this;
    }

    private ActorFuture(ActorFuture<?> root) {
        this.cell = root.cell;
        this.root = root;
    }

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new ActorFuture<>(root);
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        refuseOnTheActorsThread();
        try {
            return super.get();
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException | Error printing) {
            Throwable failure = heldFailureOr(printing);
            throw new ExecutionException(Strays.describe(failure), failure);
        }
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        refuseOnTheActorsThread();        // it could only time out
        try {
            return super.get(timeout, unit);
        } catch (CancellationException e) {
            throw e;
        } catch (RuntimeException | Error printing) {
            Throwable failure = heldFailureOr(printing);
            throw new ExecutionException(Strays.describe(failure), failure);
        }
    }

    @Override
    public T join() {
        refuseOnTheActorsThread();
        try {
            return super.join();
        } catch (CancellationException | CompletionException e) {
            throw e;
        } catch (RuntimeException | Error printing) {
            Throwable failure = heldFailureOr(printing);
            throw new CompletionException(Strays.describe(failure), failure);
        }
    }

    /**
     * What this future failed with, as {@code get} reports it (a {@code CompletionException}'s
     * cause), once a wait threw something else: the JDK's wrapping of the failure called its
     * {@code toString()}, which threw. Null if the future did not fail, or was cancelled: then
     * what the wait threw is its own. Read through {@code handle}, which passes the failure on
     * unwrapped.
     */
    /** {@link #heldFailure()}, or if there is none, {@code printing} (what the wait threw) rethrown. */
    private Throwable heldFailureOr(Throwable printing) {
        Throwable failure = heldFailure();
        if (failure != null) {
            return failure;
        }
        if (printing instanceof RuntimeException r) {
            throw r;
        }
        throw (Error) printing;
    }

    private Throwable heldFailure() {
        if (!isCompletedExceptionally() || isCancelled()) {
            return null;
        }
        Throwable x = handle((v, t) -> t).getNow(null);
        if (x instanceof CompletionException && x.getCause() != null) {
            x = x.getCause();
        }
        return x;
    }

    private void refuseOnTheActorsThread() {
        if (!isDone() && !root.isDone() && cell.runsOn(Thread.currentThread())) {
            throw new IllegalStateException("cannot wait for a future of actor '" + cell.name()
                    + "' on the thread running that actor: the actor completes it only after the code that "
                    + "waits, so the wait would never end (compose instead, with thenAccept and a tell to the "
                    + "actor's own reference)");
        }
    }
}
