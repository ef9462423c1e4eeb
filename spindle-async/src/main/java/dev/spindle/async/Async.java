/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.async.internal.DroppedValues;
import dev.spindle.async.internal.GivesBack;
import dev.spindle.internal.Strays;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Building blocks for {@link AsyncTask}s, so that tasks are composed rather than written as
 * state machines by hand.
 *
 * <pre>{@code
 * // read a number from a channel, wait a bit, double it, give up after one second
 * AsyncTask<Integer> job = Async.timeout(
 *         Async.then(channel.receive(),
 *                 n -> Async.map(Async.sleep(Duration.ofMillis(10)), ignored -> n * 2)),
 *         Duration.ofSeconds(1));
 * int result = runtime.run(job);
 * }</pre>
 *
 * <p><b>Failure.</b> A task fails by throwing from {@link AsyncTask#poll poll}; the runtime then
 * completes its {@code JoinHandle} exceptionally with what was thrown, and a combinator that
 * polls the task lets the exception pass through (after cancelling the siblings it abandons).
 * Unchecked exceptions and errors travel as they are. Checked ones (the failure of a
 * {@link CompletionStage}, a {@link TimeoutException}) travel inside a
 * {@link CompletionException}, the wrapper that {@code CompletableFuture.get()} and
 * {@code join()} unwrap, so {@code handle.get()} reports {@code ExecutionException} caused by the
 * original exception.
 *
 * <p><b>Dropping.</b> A task that is abandoned while pending should be passed to
 * {@link #cancel(AsyncTask)}, which releases its timer entry or its place in a wait queue (see
 * {@link Cancellable}). Every task returned here implements {@link Cancellable} where it may
 * hold something, and cancels its children.
 *
 * <p><b>Wakers.</b> Combinators with one child ({@code map}, {@code then}, {@code loop},
 * {@code timeout}) poll it with the parent's own context. {@code all} and {@code select} give each
 * child a waker of its own that records which child was woken and wakes the parent; a poll of the
 * parent re-polls only the children that were woken since their last poll. Budget taken by a
 * child is taken from the parent's poll.
 */
public final class Async {

    private Async() {}

    // ---------------------------------------------------------------- basics

    /**
     * A task that gives its thread back once: the first poll wakes the task and returns pending,
     * the second returns ready. Use it in long computations to let other tasks run.
     *
     * <pre>{@code
     * AsyncTask<Void> step = Async.then(Async.yieldNow(), ignored -> Async.ready(null));
     * }</pre>
     *
     * @return a new two-poll task with no result ({@code null}); each call makes a fresh one, since
     *     it keeps whether it has yielded
     */
    public static AsyncTask<Void> yieldNow() {
        return new AsyncTask<>() {
            private boolean yielded;

            @Override
            public Poll<Void> poll(Context cx) {
                if (yielded) {
                    return Poll.ready(null);
                }
                yielded = true;
                cx.waker().wake();
                return Poll.pending();
            }
        };
    }

    /**
     * A task that is ready at once with {@code value}.
     *
     * <pre>{@code
     * AsyncTask<String> hello = Async.ready("hello");
     * }</pre>
     *
     * @param <T> the value's type
     * @param value the result, which may be {@code null}
     * @return a stateless task, ready with {@code value} at every poll
     */
    @SuppressWarnings("unchecked")
    public static <T> AsyncTask<T> ready(T value) {
        if (value == null) {
            return (AsyncTask<T>) READY_NULL; // stateless, so one instance serves every caller
        }
        Poll<T> p = Poll.ready(value);
        return cx -> p;
    }

    private static final AsyncTask<?> READY_NULL = cx -> Poll.ready(null);

    /**
     * A task whose first poll throws {@code error} (a checked one inside a
     * {@link CompletionException}).
     *
     * <pre>{@code
     * AsyncTask<String> bad = Async.failed(new IllegalStateException("no"));
     * }</pre>
     *
     * @param <T> the result type the task pretends to have
     * @param error what every poll throws: a runtime exception or an error as it is, a checked
     *     exception inside a {@link CompletionException}
     * @return a task that never completes normally
     * @throws NullPointerException if {@code error} is null
     */
    public static <T> AsyncTask<T> failed(Throwable error) {
        Objects.requireNonNull(error, "error");
        return cx -> {
            throw unchecked(error);
        };
    }

    /**
     * A task that completes when {@code stage} completes: ready with its value, or failing with
     * its exception (unwrapped from a {@link CompletionException} if the stage wrapped it; a
     * checked exception is then wrapped again, see the class comment). The callback is attached
     * at the first poll; cancelling the task does not cancel the stage. The value stays the
     * stage's, which hands it to its other dependents: should the runtime drop it (the task's
     * handle cancelled during the poll that returned it), it does not close it, as it leaves a
     * handle's value to the handle (see {@link JoinHandle#cancel}).
     *
     * <pre>{@code
     * CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> "computed");
     * AsyncTask<Integer> length = Async.map(Async.from(f), String::length);
     * }</pre>
     *
     * @param <T> the stage's value type
     * @param stage the stage to wait for; it is not cancelled with the task
     * @return a task that completes as {@code stage} does
     * @throws NullPointerException if {@code stage} is null
     */
    public static <T> AsyncTask<T> from(CompletionStage<T> stage) {
        Objects.requireNonNull(stage, "stage");
        return new FromStage<>(stage);
    }

    /**
     * Drops a task: if it implements {@link Cancellable}, releases what it holds while pending
     * (timer entries, places in wait queues). Does nothing for other tasks. The task must not be
     * polled afterwards. A runtime calls this for a spawned task whose handle is cancelled or
     * that is pending when the runtime shuts down.
     *
     * @param task the task to drop; it must not be in a poll at the time (see {@link Cancellable})
     * @throws NullPointerException if {@code task} is null
     */
    public static void cancel(AsyncTask<?> task) {
        // refused as every other entry point refuses null: a caller that lost its task reference
        // left what the task holds registered, and was not told
        Objects.requireNonNull(task, "task");
        if (task instanceof Cancellable) {
            ((Cancellable) task).cancel();
        }
    }

    /**
     * Drops a child that a combinator owns and gives up on (a loser of {@code select}, a task
     * {@code timeout} gives up on, the task under a cancelled {@code map}, {@code then},
     * {@code recover} or {@code loop}; every combinator but {@code all}, which documents that it
     * leaves handles running): as {@link #cancel}, and if it is the {@link JoinHandle} of a
     * spawned task, cancels that task, which would otherwise go on running (and holding what it
     * holds) with nobody awaiting it. A promise is left alone: it is not a task, and whoever
     * completes it, or others awaiting it, may still need it.
     */
    static void abandon(AsyncTask<?> task) {
        if (task instanceof TaskCell<?> spawned) {
            spawned.cancel(false);
        } else {
            cancel(task);
        }
    }

    /**
     * What a poll whose {@code cx.waker()} is null (a broken hand-written context, a mock's
     * default answer) throws, as a channel operation, a semaphore acquire and a handle do. The
     * combinators and timer tasks stored it, or gave it to a timer entry, which skips a null
     * waker: the task stayed pending for good, nobody told. A poll that throws leaves its task
     * finished, which nobody will cancel, so the caller first withdraws what it had registered.
     */
    static NullPointerException noWaker(String what) {
        return new NullPointerException("Context.waker() returned null: " + what
                + " is awaited by registering the waker of the poll that finds it pending");
    }

    /**
     * {@link #abandon} unless {@code task} has completed since its last poll, as
     * {@link #cancelUnlessDone}: a spawned task's handle that is already done is not withdrawn.
     */
    static boolean abandonUnlessDone(AsyncTask<?> task) {
        if (task instanceof TaskCell<?> spawned) {
            return spawned.cancel(false);      // false: done, its next poll gives its outcome
        }
        return cancelUnlessDone(task);
    }

    /**
     * Whether the value {@code task}'s last poll returned is a handle's own, which the handle
     * still holds for its other awaiters: {@code task} is a handle, or passes one's value on as
     * its own (a then whose second task is one, a then whose function passed its first task's
     * value on through a second task ready at once, a timeout over such a task, a select won by
     * one, an {@code any}, a map whose function returned the very value it was given, a recover
     * its task's value passed through, a long chain run as a pipeline, a loop whose last turn passed
     * one's value on as its {@link Step#done} result; see {@link DirectTask#readFromHandle}), or
     * is a {@link #from} task, whose stage likewise holds its value for its other dependents. The
     * runtime, dropping a value whose task's handle was cancelled during the poll that returned
     * it, leaves such a value alone: it closed a connection that the awaited handle went on
     * handing to others. Asked on that drop alone, never on a task's usual path.
     */
    static boolean readFromHandle(AsyncTask<?> task) {
        if (task instanceof JoinHandle) {
            return true;
        }
        if (task instanceof DirectTask<?> d) {
            return d.readFromHandle();
        }
        if (task instanceof FromStage<?>) {
            return true;                       // the stage holds it for its other dependents
        }
        return task instanceof TimeoutTask<?> t && readFromHandle(t.task);
    }

    /** {@link Cancellable#cancelUnlessDone()} of {@code task}, or {@code true} for a task that holds nothing. */
    static boolean cancelUnlessDone(AsyncTask<?> task) {
        return !(task instanceof Cancellable c) || c.cancelUnlessDone();
    }

    /**
     * Whether {@code cx} is a runtime's own context (a spawned task's cell, or the context
     * {@code all} or {@code select} gives a child while polled with such a context, all the way
     * up): its {@code waker()}, {@code consumeBudget()} and its waker's {@code expired()} read or
     * count a field or two and run no user code, so a channel or a semaphore may ask them under
     * its lock, as late as it can (a cancel of the task's handle during the poll is then seen
     * just before a value or a permit is taken). Any other context, or a child's under one, may
     * be a user's, which may look at that channel or semaphore: it is asked before the lock.
     * Asked of a waker (both of these are their own wakers), whether its {@code expired()} may
     * so be asked under a lock.
     */
    static boolean isRuntimeContext(Object cx) {
        if (cx instanceof TaskCell) {
            return true;
        }
        if (!(cx instanceof Child c)) {
            return false;
        }
        Context up = c.cx;                     // what its consumeBudget asks
        Waker w = c.parent.waker;              // what its expired asks
        return (up == null || isRuntimeContext(up)) && (w == null || w == up || isRuntimeContext(w));
    }

    // ---------------------------------------------------------------- sequencing

    /**
     * A task that runs {@code task} and applies {@code fn} to its result.
     *
     * <pre>{@code
     * AsyncTask<Integer> length = Async.map(Async.ready("four"), String::length); // 4
     * }</pre>
     *
     * @param <T> the result type of {@code task}
     * @param <R> the result type of the mapped task
     * @param task the task to run; the returned task owns it (cancelling the returned task cancels
     *     it, a spawned task's {@link JoinHandle} included: that task is cancelled)
     * @param fn applied once, on the polling worker, to {@code task}'s result; what it throws fails
     *     the returned task
     * @return the mapped task
     * @throws NullPointerException if {@code task} or {@code fn} is null
     */
    public static <T, R> AsyncTask<R> map(AsyncTask<T> task, Function<? super T, ? extends R> fn) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(fn, "fn");
        return new MapTask<>(task, fn);
    }

    /**
     * A task that runs {@code task}, then the task that {@code fn} makes of its result, and
     * completes with that one's result (flat-map).
     *
     * <pre>{@code
     * AsyncTask<String> reply = Async.then(channel.receive(),
     *         request -> Async.map(other.send(request), ignored -> "forwarded " + request));
     * }</pre>
     *
     * @param <T> the result type of {@code task}
     * @param <R> the result type of the task {@code fn} returns
     * @param task the first task
     * @param fn makes the second task from the first one's result, on the polling worker; it must
     *     not return {@code null} (the returned task then fails with a
     *     {@link NullPointerException})
     * @return the sequenced task; cancelling it cancels whichever of the two is running (a spawned
     *     task's {@link JoinHandle} included: that task is cancelled)
     * @throws NullPointerException if {@code task} or {@code fn} is null
     */
    public static <T, R> AsyncTask<R> then(
            AsyncTask<T> task, Function<? super T, ? extends AsyncTask<R>> fn) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(fn, "fn");
        return new ThenTask<>(task, fn);
    }

    /**
     * A task that runs {@code task} and, if its poll throws, completes with
     * {@code handler.apply(exception)} instead (the exception as thrown, without unwrapping).
     * The handler may rethrow.
     *
     * <pre>{@code
     * // null once the channel is closed and drained
     * AsyncTask<Integer> next = Async.recover(channel.receive(), e -> {
     *     if (e instanceof ChannelClosedException) return null;
     *     throw Async.unchecked(e);
     * });
     * }</pre>
     *
     * @param <T> the result type
     * @param task the task to run; the returned task owns it (cancelling the returned task cancels
     *     it, a spawned task's {@link JoinHandle} included: that task is cancelled)
     * @param handler maps what a poll of {@code task} threw (errors included) to the result
     * @return a task with {@code task}'s result, or the handler's if {@code task} failed
     * @throws NullPointerException if {@code task} or {@code handler} is null
     */
    public static <T> AsyncTask<T> recover(
            AsyncTask<T> task, Function<? super Throwable, ? extends T> handler) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(handler, "handler");
        return new RecoverTask<>(task, handler);
    }

    /**
     * One turn of {@link #loop}: go on with a new state, or finish with a result.
     *
     * @param <S> the loop's state
     * @param <R> the loop's result
     */
    public static final class Step<S, R> {
        private final S state;
        private final R result;
        private final boolean done;

        private Step(S state, R result, boolean done) {
            this.state = state;
            this.result = result;
            this.done = done;
        }

        /**
         * Go on with {@code state}.
         *
         * @param <S> the loop's state type
         * @param <R> the loop's result type
         * @param state the state the loop's next turn starts from (may be {@code null})
         * @return a step that continues the loop
         */
        public static <S, R> Step<S, R> next(S state) {
            return new Step<>(state, null, false);
        }

        /**
         * Finish the loop with {@code result}.
         *
         * @param <S> the loop's state type
         * @param <R> the loop's result type
         * @param result what the loop completes with (may be {@code null})
         * @return a step that ends the loop
         */
        public static <S, R> Step<S, R> done(R result) {
            return new Step<>(null, result, true);
        }

        /**
         * Whether this step ends the loop.
         *
         * @return {@code true} for a step made by {@link #done}, {@code false} for one made by
         *     {@link #next}
         */
        public boolean isDone() {
            return done;
        }

        @Override
        public String toString() {
            return done ? "Done[" + result + "]" : "Next[" + state + "]";
        }
    }

    /**
     * An asynchronous loop: starting from {@code initial}, runs {@code step.apply(state)} and
     * goes on with the state of each {@link Step#next} until a {@link Step#done}. Each turn takes
     * one unit of the poll's budget, so a loop whose steps are always ready still yields.
     *
     * <pre>{@code
     * // sums the first three messages of a channel
     * AsyncTask<Integer> sum = Async.loop(new int[] {0, 0}, acc -> acc[0] == 3
     *         ? Async.ready(Async.Step.done(acc[1]))
     *         : Async.map(channel.receive(),
     *                 (Integer m) -> Async.Step.next(new int[] {acc[0] + 1, acc[1] + m})));
     * }</pre>
     *
     * @param <S> the state type
     * @param <R> the result type
     * @param initial the first turn's state (may be {@code null})
     * @param step makes each turn's task from the current state; it must not return {@code null}
     *     (the loop then fails with a {@link NullPointerException}), nor a task that completes
     *     with {@code null} instead of a {@link Step} (likewise)
     * @return the loop task; cancelling it cancels the turn in progress (a spawned task's
     *     {@link JoinHandle} included: that task is cancelled)
     * @throws NullPointerException if {@code step} is null
     */
    public static <S, R> AsyncTask<R> loop(
            S initial, Function<? super S, ? extends AsyncTask<Step<S, R>>> step) {
        Objects.requireNonNull(step, "step");
        return new LoopTask<>(initial, step);
    }

    /**
     * Runs the task made by {@code body} again and again while it completes with {@code true}.
     * Each turn takes one unit of the poll's budget.
     *
     * <pre>{@code
     * // forwards messages until a negative one arrives
     * AsyncTask<Void> pump = Async.whileTrue(() -> Async.then(in.receive(),
     *         (Integer m) -> m < 0 ? Async.ready(false) : Async.map(out.send(m), x -> true)));
     * }</pre>
     *
     * @param body makes each turn's task; the loop ends when one completes with {@code false}. A
     *     {@code null} task, or a turn that completes with {@code null}, fails the loop with a
     *     {@link NullPointerException}
     * @return a task that completes ({@code null}) after the first turn that yields {@code false}
     * @throws NullPointerException if {@code body} is null
     */
    public static AsyncTask<Void> whileTrue(Supplier<? extends AsyncTask<Boolean>> body) {
        Objects.requireNonNull(body, "body");
        // the turn's task and its result are checked here, so that a null fails the loop naming
        // whileTrue's body rather than map's "task" or an unboxing of a variable the caller never saw
        return loop(null, ignored -> map(
                Objects.requireNonNull(body.get(), "whileTrue: body returned null instead of a task"),
                (Boolean more) -> Objects.requireNonNull(more,
                        "whileTrue: a turn completed with null instead of true or false")
                        ? Step.<Object, Void>next(null) : Step.<Object, Void>done(null)));
    }

    // ---------------------------------------------------------------- fan-out

    /**
     * A task that runs all {@code tasks} concurrently and completes with their results, in the
     * order of the list. If one fails, the others are cancelled and the failure passes through
     * (a {@link JoinHandle} in the list is only no longer awaited: its task is not cancelled).
     * The results of those that completed before the failure (or before this task was cancelled)
     * are dropped with it, and so are those in the list the runtime drops (its task's handle
     * cancelled during the poll that returned it). What nobody received is undone where the
     * runtime can tell what it came from: a completed {@link AsyncChannel#receive()} puts its
     * value back into its channel, ahead of the values buffered there, for the next receive (see
     * {@link AsyncChannel}'s <i>Values nobody received</i>), and a completed
     * {@link AsyncSemaphore#acquire()} gives its permit back; so does such an operation whose
     * value a child passed on untouched as its own (a then ending in it, a timeout over it, a
     * recover whose handler did not run, in a chain of any length). A connection an accept or
     * a connect returned is closed, as the runtime closes one it drops; one that a handle still
     * holds, a task passing it on from the handle it awaited, is left to that handle, as a
     * {@link #from} task's value is left to its stage. A value a child's function was given
     * (a then starting with a receive or an acquire, a map over one) is that child's: the
     * function may have kept the message elsewhere or released the permit, so the runtime
     * cannot undo it, and it is lost with the child's value. So are the receives and acquires
     * in a selection or a list that a function was given (a map over a select or an all, a
     * task of the caller's that polled one): only one that reached this list untouched from
     * its select or all is undone. Where such values must not be
     * lost, spawn each operation and pass the {@link JoinHandle}s, which keep their outcomes,
     * or handle each one's failure inside it so that {@code all} itself does not fail.
     * Its first poll polls every task; each later poll polls only the tasks woken since the
     * previous one, so joining n tasks this way costs O(n) whatever the order in which they
     * finish. Handles (spawned tasks, promises) that complete with a value wake it once, when
     * the last of them does: joining n spawned tasks costs the parent at most one wake-up and two
     * polls, however many finish on its worker.
     *
     * <p>A handle that a child made for itself (a then whose function spawned a task and returned
     * its {@link JoinHandle}, as a then or a loop turn ending in it) is the child's to cancel,
     * not to close: a child still awaiting it when the {@code all} fails is cancelled, which
     * cancels that spawned task, but a child that completed with its value passed on the
     * handle's value, which the handle holds, and the {@code all} leaves it to the handle, as it
     * leaves a handle child's. So a connection such a spawned task returned stays open, held by
     * nobody, when the {@code all} fails or is cancelled, or the runtime drops its list. The
     * runtime does not close it: it cannot tell a handle the function made, which nobody else
     * holds, from one the function passed on from elsewhere (a handle stored before, a promise),
     * whose other awaiters still need the value, and it must not close a value under them.
     * Return the operation itself from the function ({@code connect()}, not a
     * {@code spawn(connect())}), whose value is the child's own and is closed, or keep the
     * handles and close what they hold.
     *
     * <pre>{@code
     * AsyncTask<List<Integer>> both = Async.all(List.of(a.receive(), b.receive()));
     * }</pre>
     *
     * @param <T> the result type of the tasks
     * @param tasks the tasks, copied at this call; an empty list gives a task ready at once with an
     *     empty list
     * @return a task ready with an unmodifiable list of the results, in the order of {@code tasks}
     * @throws NullPointerException if {@code tasks} or one of its elements is null
     */
    public static <T> AsyncTask<List<T>> all(List<? extends AsyncTask<? extends T>> tasks) {
        return new AllTask<>(Objects.requireNonNull(tasks, "tasks"));
    }

    /**
     * Which task of a {@link #select} finished first, and its result.
     *
     * @param <T> the result type
     */
    public static final class Selected<T> {
        static {
            // a selection the runtime drops drops its value, unless a handle holds it too (see
            // AllResults); registered before any instance. Its winner's receive or acquire is
            // undone only where the walk finds the selection untouched (dropUnreceived)
            DroppedValues.closeWhenDropped(Selected.class, s -> s.drop(false));
        }

        private final int index;
        private final T value;
        /**
         * Who else has a say in the value: {@code null} if nobody (it is the selection's);
         * {@link #HELD_BY_A_HANDLE} if the winner was a {@link JoinHandle}, or passed one's value
         * on (a map over it), which still holds the value for others; the receive or acquire
         * the winner's value came from ({@link #takerOf}), which takes it back if nobody
         * receives the selection (or the loop that ended with a {@link Step} one took, which
         * gives that step back); {@link #UNTOUCHED_RESULTS} if the winner passed on a selection
         * or list of its own untouched. One reference where a boolean was: a selection stays 24
         * bytes.
         */
        final Object holder;

        Selected(int index, T value, Object holder) {
            this.index = index;
            this.value = value;
            this.holder = holder;
        }

        /**
         * Drops the value, which nobody received: undone by its {@link #holder} if
         * {@code untouched} (no function was given this selection), else dropped as a value a
         * function was given is (a connection closed), the holder's operation left alone.
         */
        void drop(boolean untouched) {
            dropUnreceived(value, untouched || holder == HELD_BY_A_HANDLE ? holder : null);
        }

        /**
         * The index of the winner in the list given to {@code select}.
         *
         * @return the winner's position, from 0 to the list's size minus one
         */
        public int index() {
            return index;
        }

        /**
         * The winner's result.
         *
         * @return the winner's result (may be {@code null})
         */
        public T value() {
            return value;
        }

        @Override
        public String toString() {
            return "Selected[" + index + ", " + value + "]";
        }
    }

    /**
     * A task that runs {@code tasks} concurrently until the first completes, then cancels the
     * others. Completes with the winner's index and result; if the first task to finish fails,
     * fails the same way. Within one poll the children are polled in list order, so on a tie the
     * lower index wins. A loser that is the {@link JoinHandle} of a spawned task is cancelled
     * through its handle (so is every such handle when this task is cancelled), unlike in
     * {@link #all}; an {@link AsyncPromise} is only no longer awaited.
     *
     * <p>A loser is cancelled, which undoes what a receive or an acquire had taken (the value goes
     * back, the permit is released); so is a winner that is an {@link AsyncChannel#receive()} or
     * an {@link AsyncSemaphore#acquire()}, or passes one's value on untouched (a then ending in
     * it, a timeout over it, a recover whose handler did not run), whose selection (or
     * {@link #any}'s value) nobody receives, the runtime dropping it (its task's handle
     * cancelled during the poll that returned it): the receive's value goes back into its
     * channel, ahead of the buffered values, for the next receive. A value a winner's function
     * was given (a map over a receive, or over a select or all whose result holds one) is the
     * winner's, and is dropped with the selection, as {@link #all} documents. Not undone is a send the
     * channel has already accepted: a waiting {@link AsyncChannel#send} can be accepted by a
     * receiver on another thread between the poll that found it pending and the cancel, and
     * then its value is delivered although another branch won. Select over sends only where a
     * value sent twice (after a retry) does no harm.
     * Nor is a spawned task undone that completed before its handle lost: its result stays in
     * the handle, and is dropped with it unless the caller kept the handle (a spawned receive's
     * value is then gone). Select over the receive itself, not over a task spawned to make it.
     * The same holds for a handle that a loser made for itself (a then whose function spawned a
     * task and returned its {@link JoinHandle}, as a then or a loop turn ending in it): the
     * loser's cancel cancels that task while it runs, but one that has completed keeps its
     * value in its handle, and nobody closes it (a connection it returned stays open, held by
     * nobody). The runtime cannot tell a handle the function made, which nobody else holds,
     * from one it passed on from elsewhere (a handle stored before, a promise), whose other
     * awaiters still need the value, so it closes neither. Return the operation itself from the
     * function ({@code connect()}, not a {@code spawn(connect())}): it completes only in a poll
     * of its own, and a loser was pending at its last one, so its cancel withdraws the connect.
     *
     * <pre>{@code
     * AsyncTask<Async.Selected<Integer>> first = Async.select(List.of(a.receive(), b.receive()));
     * }</pre>
     *
     * @param <T> the result type of the tasks
     * @param tasks the competing tasks, copied at this call
     * @return a task ready with the index and result of the first task to complete
     * @throws IllegalArgumentException if {@code tasks} is empty
     * @throws NullPointerException if {@code tasks} or one of its elements is null
     */
    public static <T> AsyncTask<Selected<T>> select(List<? extends AsyncTask<? extends T>> tasks) {
        return new SelectTask<>(nonEmpty(tasks, "select"));
    }

    /** {@code tasks}, checked for {@code method}: whose caller is named, {@code any} or {@code select}. */
    private static <L extends List<?>> L nonEmpty(L tasks, String method) {
        if (Objects.requireNonNull(tasks, "tasks").isEmpty()) {
            throw new IllegalArgumentException("tasks must not be empty: " + method + " needs at least one task");
        }
        return tasks;
    }

    /**
     * Like {@link #select}, completing with the first result only. As there, the losers are
     * cancelled, a spawned task's {@link JoinHandle} included (its task is cancelled), and of
     * tasks found ready in the same poll the one earlier in the list wins: two sleeps that have
     * both ended by the time the task is polled (a thread held up in between) are a tie, whatever
     * their durations.
     *
     * <pre>{@code
     * AsyncTask<String> fastest = Async.any(List.of(
     *         Async.map(Async.sleep(Duration.ofSeconds(10)), x -> "slow"),
     *         Async.map(Async.sleep(Duration.ofMillis(5)), x -> "fast")));   // "fast"
     * }</pre>
     *
     * @param <T> the result type of the tasks
     * @param tasks the competing tasks, copied at this call
     * @return a task ready with the result of the first task to complete
     * @throws IllegalArgumentException if {@code tasks} is empty
     * @throws NullPointerException if {@code tasks} or one of its elements is null
     */
    public static <T> AsyncTask<T> any(List<? extends AsyncTask<? extends T>> tasks) {
        return new AnyTask<>(new SelectTask<>(nonEmpty(tasks, "any")));
    }

    /** For tests: children looked at so far by the polls of {@code parent}, an {@link #all} or {@link #select}. */
    static long childrenExamined(AsyncTask<?> parent) {
        return ((Parent) parent).examined;
    }

    // ---------------------------------------------------------------- time

    /**
     * A task that completes once {@code duration} has passed, counted from this call (not from
     * the first poll), on the shared timer thread. Zero or negative durations are ready at once.
     * Cancelling it removes its timer entry.
     *
     * <pre>{@code
     * AsyncTask<String> later = Async.map(Async.sleep(Duration.ofMillis(20)), x -> "woke up");
     * }</pre>
     *
     * @param duration how long to wait; one longer than 2^61 ns (about 73 years) counts as
     *     2^61 ns, the furthest ahead a timer is kept
     * @return a task ready ({@code null}) once the time has passed
     * @throws NullPointerException if {@code duration} is null
     */
    public static AsyncTask<Void> sleep(Duration duration) {
        // within 2^61 ns of now, so never mistaken for an overflowed past deadline (see sleepUntil)
        return new SleepTask(System.nanoTime() + saturatedNanos(duration));
    }

    /**
     * A task that completes once {@link System#nanoTime()} reaches {@code deadlineNanos}.
     *
     * <pre>{@code
     * long t0 = System.nanoTime();
     * AsyncTask<Void> tick = Async.sleepUntil(t0 + 1_000_000);   // one millisecond after t0
     * }</pre>
     *
     * @param deadlineNanos the deadline, in the time base of {@link System#nanoTime()}; one in the
     *     past is ready at once, {@code Long.MIN_VALUE} included, and {@code Long.MAX_VALUE} is
     *     not reached in practice ("no deadline"). A deadline is compared with the clock by their
     *     difference, which overflows for one more than 2^63 ns in the past: one that reads as
     *     more than 2^62 ns (about 146 years) ahead while lying below the clock's reading counts
     *     as in the past
     * @return a task ready ({@code null}) once the deadline is reached
     */
    public static AsyncTask<Void> sleepUntil(long deadlineNanos) {
        long now = System.nanoTime();
        // sleep and timeout keep their deadlines within 2^61 ns of now. A difference beyond
        // 2^62 ns is ambiguous: Long.MIN_VALUE ("long ago") and Long.MAX_VALUE ("never") both
        // read almost 2^63 ns ahead of a positive clock. Only one whose subtraction wrapped
        // (the deadline lies below the clock) is a past one, which would otherwise wait for a
        // timer clamped 73 years out: it is due now instead
        boolean wrappedPast = deadlineNanos - now > Long.MAX_VALUE / 2 && deadlineNanos < now;
        return new SleepTask(wrappedPast ? now : deadlineNanos);
    }

    /**
     * A task that runs {@code task} but gives up once {@code duration} has passed, counted from
     * this call. Giving up cancels {@code task} (if it is the {@link JoinHandle} of a spawned
     * task, that task, unless it is done by then; an {@link AsyncPromise} is only no longer
     * awaited) and fails with a {@link CompletionException}
     * whose cause is a {@link TimeoutException}. Each poll polls {@code task} first, so a task
     * that is ready when the deadline passes still wins. Completing either way removes the
     * timer entry.
     *
     * <p>Giving up withdraws the task in one step with whatever would complete it
     * ({@link Cancellable#cancelUnlessDone()}): a receive or an acquire is undone (the value goes
     * back, the permit is released), and a waiting {@link AsyncChannel#send} that a receiver on
     * another thread took after the last poll counts as completed, so the timeout reports its
     * completion rather than a timeout (unlike
     * {@link java.util.concurrent.CompletableFuture#orTimeout}): a timed-out send was not
     * delivered, and may be retried without sending the value twice. This holds for a send
     * under {@code map}, {@code recover}, {@code then} (whose last stage is the send),
     * {@code loop} and another {@code timeout}, and for a hand-written task that passes
     * {@code cancelUnlessDone} on; a send
     * inside {@code all} or {@code select} is cancelled as a whole, as those document.
     *
     * <pre>{@code
     * AsyncTask<Integer> bounded = Async.timeout(channel.receive(), Duration.ofSeconds(1));
     * // runtime.spawn(bounded).get() throws ExecutionException caused by TimeoutException
     * }</pre>
     *
     * @param <T> the result type
     * @param task the task to bound; the returned task owns it (cancelling the returned task
     *     cancels it, a spawned task's handle included)
     * @param duration how long to wait for it; zero or negative gives up at the first poll at which
     *     {@code task} is not ready; one longer than 2^61 ns (about 73 years) counts as 2^61 ns
     * @return a task with {@code task}'s result, or failing with the timeout
     * @throws NullPointerException if {@code task} or {@code duration} is null
     */
    public static <T> AsyncTask<T> timeout(AsyncTask<T> task, Duration duration) {
        Objects.requireNonNull(task, "task");
        return new TimeoutTask<>(task, System.nanoTime() + saturatedNanos(duration), duration);
    }

    // ---------------------------------------------------------------- internals

    private static long saturatedNanos(Duration d) {
        Objects.requireNonNull(d, "duration");
        try {
            // a negative duration that fits is clamped as well: now + Long.MIN_VALUE lies 2^63 ns
            // away, so a nanosecond later the difference that tests the deadline overflows and
            // the "ready at once" deadline compares as almost 292 years ahead. A long one that
            // fits is clamped to the timers' own limit (Timers.MAX_AHEAD_NANOS), at which its
            // entry fired anyway: the deadline then says what happens, as sleep documents
            return Math.min(Math.max(d.toNanos(), Long.MIN_VALUE / 4), Timers.MAX_AHEAD_NANOS);
        } catch (ArithmeticException overflow) {
            return d.isNegative() ? Long.MIN_VALUE / 4 : Long.MAX_VALUE / 4;
        }
    }

    /**
     * {@code t} as something to throw from {@code poll}: a runtime exception as it is, an error
     * thrown at once, a checked exception inside a {@link CompletionException}.
     *
     * <pre>{@code
     * throw Async.unchecked(new java.io.IOException("reset"));   // CompletionException(IOException)
     * }</pre>
     *
     * @param t what to throw; an {@link Error} is thrown by this method itself
     * @return {@code t} itself if it is a {@link RuntimeException}, else a new
     *     {@link CompletionException} caused by {@code t}, for the caller to throw
     * @throws NullPointerException if {@code t} is null (there is nothing to throw; a
     *     {@code CompletionException} without a cause would hide the mistake)
     */
    public static RuntimeException unchecked(Throwable t) {
        Objects.requireNonNull(t, "t: the throwable to make unchecked");
        if (t instanceof RuntimeException) {
            return (RuntimeException) t;
        }
        if (t instanceof Error) {
            throw (Error) t;
        }
        return new CompletionException(Strays.describe(t), t);   // the cause constructor printed t, which may throw
    }

    /**
     * Waits for a stage through a callback attached at the first poll. A stage can not take a
     * callback back, so the callback stays with the stage until it completes, however long: a
     * stage that lives long (a shutdown signal) and is raced in every request collects one per
     * request. So the callback holds only this object, and {@link #cancel} drops the waker,
     * which reaches the awaiting task (its select, its spawned cell and the cell's result):
     * what stays with the stage for a dropped wait is these few objects, none of the user's.
     *
     * <p>Its value is the stage's, which the stage still hands to its other dependents (another
     * task's {@code from}, a {@code join}, a handle's own {@link JoinHandle#toCompletableFuture}):
     * {@link Async#readFromHandle} answers for it as for a handle. Counted as the task's own, a
     * connection was closed under them when the runtime dropped it.
     */
    private static final class FromStage<T> implements AsyncTask<T>, Cancellable {
        private final CompletionStage<T> stage;
        private boolean attached;
        /** The waker of the latest poll; {@code null} once the task is dropped. */
        private volatile Waker waker;
        private volatile boolean done;
        private T value; // written before done, read after it
        private Throwable error;

        FromStage(CompletionStage<T> stage) {
            this.stage = stage;
        }

        @Override
        public Poll<T> poll(Context cx) {
            Waker given = cx.waker();
            if (given == null) {
                waker = null;      // this poll throws: the task is dropped (see the field)
                throw noWaker("from(stage)");
            }
            waker = given;
            if (!attached) {
                attached = true;
                stage.whenComplete((v, e) -> {
                    value = v;
                    error = e;
                    done = true;
                    Waker w = waker;
                    if (w != null) {
                        w.wake();
                    }
                });
            }
            if (!done) {
                return Poll.pending();
            }
            Throwable e = error;
            if (e != null) {
                if (e instanceof CompletionException && e.getCause() != null) {
                    e = e.getCause();
                }
                throw unchecked(e);
            }
            return Poll.ready(value);
        }

        @Override
        public void cancel() {
            waker = null;
        }

        /** Too late once the stage has completed: the next poll returns its outcome. */
        @Override
        public boolean cancelUnlessDone() {
            if (done) {
                return false;
            }
            cancel();
            return true;
        }
    }

    /**
     * Chains of maps, thens and recovers longer than this are flattened into a {@link Pipeline}
     * at their first poll. Below it a chain polls as it is built, one nested poll per stage,
     * which costs nothing extra; above it the nesting would overflow the worker's stack (a chain
     * of 100,000 stages threw {@link StackOverflowError}).
     */
    static final int FLATTEN_DEPTH = 64;

    /**
     * The task an unstarted map, then or recover awaits first, or {@code null} if {@code t} is
     * none. An {@link #any} is a stage too, but not a link: it takes the winner's value out of
     * its selection, which a {@link Pipeline} does not do, so a chain starts at it. Counted as a
     * link, the pipeline let the selection through as if it were a recover's value.
     */
    private static AsyncTask<?> innerStage(AsyncTask<?> t) {
        if (t instanceof Stage<?, ?> s && !(t instanceof AnyTask<?>)) {
            return s.task;
        }
        if (t instanceof ThenTask<?, ?> th && th.second == null && th.first != null) {
            return th.first;
        }
        return null;
    }

    /**
     * {@code source}, or a {@link Pipeline} in its place if it is a chain of more than
     * {@link #FLATTEN_DEPTH} unstarted maps, thens and recovers. The caller owns {@code source}, and so
     * every stage of the chain: no one else polls them.
     */
    private static AsyncTask<?> flattened(AsyncTask<?> source) {
        int depth = 0;
        for (AsyncTask<?> t = source; t != null && depth <= FLATTEN_DEPTH; t = innerStage(t)) {
            depth++;
        }
        if (depth <= FLATTEN_DEPTH) {
            return source;
        }
        ArrayList<AsyncTask<?>> stages = new ArrayList<>();
        AsyncTask<?> t = source;
        for (AsyncTask<?> inner; (inner = innerStage(t)) != null; t = inner) {
            stages.add(t);
        }
        Collections.reverse(stages);
        return new Pipeline(t, stages.toArray(new AsyncTask<?>[0]));
    }

    /**
     * A long chain of maps, thens and recovers run as a loop: it awaits one task at a time (the
     * chain's innermost task, then each task a then's function makes) and applies the stages
     * after it in order, so its depth on the stack is the same for 100,000 stages as for one.
     * What a poll or a stage throws goes to the next recover stage, as it went out through the
     * stages nested inside that recover. Cancelling it abandons the task it awaits, which is
     * what cancelling the chain's outermost stage did through each stage in turn.
     */
    private static final class Pipeline extends DirectTask<Object> implements Cancellable {
        private AsyncTask<?> current;
        /** The stages (maps, thens, recovers), innermost first; those passed are nulled. */
        private final AsyncTask<?>[] stages;
        private int next;
        /**
         * Whether the value the last poll reached is the awaited task's own, unchanged by the
         * stages after it (none, or maps whose functions returned the very value they were
         * given): then it is a handle's if that task is one or passes one's on (a then's
         * function returned a handle as the chain's last task): see {@link #readFromHandle}.
         */
        private boolean ofCurrent;
        /**
         * Whether the value the last poll returned is {@link #current}'s, untouched by any
         * function (only recovers, whose handlers did not run, passed it on): then
         * {@link Async#takerOf} looks at that task. Written once per poll that returns a value.
         */
        private boolean untouched;

        Pipeline(AsyncTask<?> source, AsyncTask<?>[] stages) {
            this.current = source;
            this.stages = stages;
        }

        @Override
        Object pollDirect(Context cx) {
            RecoverTask<?> recover = null;
            Throwable failure = null;
            for (;;) {
                try {
                    return run(cx, recover, failure);
                } catch (Throwable t) {
                    recover = nextRecover();
                    if (recover == null) {
                        throw t;
                    }
                    failure = t;
                }
            }
        }

        /**
         * Polls the awaited task and applies the stages after it until one awaits a task that is
         * pending, or none is left; with {@code recover}, starts from its handler's value for
         * {@code failure} instead.
         */
        private Object run(Context cx, RecoverTask<?> recover, Throwable failure) {
            ofCurrent = false;
            boolean own = false;               // whether v is current's, no function having seen it
            Object v;
            if (recover != null) {
                v = recover.handle(failure);
            } else {
                v = DirectTask.pollValue(current, cx);
                ofCurrent = true;
                own = true;
            }
            while (v != DirectTask.PENDING) {
                if (next == stages.length) {
                    untouched = own;
                    return v;
                }
                AsyncTask<?> s = stages[next];
                stages[next++] = null;
                if (s instanceof MapTask<?, ?> m) {
                    Object r = m.apply(v);
                    ofCurrent &= passesOn(r, v); // a function that passed its value on leaves it the task's
                    own = false;
                    v = r;
                } else if (s instanceof ThenTask<?, ?> th) {
                    AsyncTask<?> passed = current;
                    current = th.secondFor(v);
                    Object r = DirectTask.pollValue(current, cx);
                    if (r != DirectTask.PENDING && secondPassesOn(current, r, v)) {
                        current = passed;      // the function passed v on at once: still passed's (as a then's)
                        own = false;           // but the function saw it
                    } else {
                        ofCurrent = true;
                        own = true;
                    }
                    v = r;
                }                              // else a recover: a value passes through it
            }
            return v;
        }

        /** Asked on a drop alone, so the awaited task is looked at then, not at every stage. */
        @Override
        boolean readFromHandle() {
            return ofCurrent && Async.readFromHandle(current);
        }

        /** The next recover stage, skipping (and passing) the stages before it; null if none. */
        private RecoverTask<?> nextRecover() {
            while (next < stages.length) {
                AsyncTask<?> s = stages[next];
                stages[next++] = null;
                if (s instanceof RecoverTask<?> r) {
                    return r;
                }
            }
            return null;
        }

        @Override
        public void cancel() {
            Async.abandon(current);
        }

        @Override
        public boolean cancelUnlessDone() {
            return Async.abandonUnlessDone(current);
        }
    }

    /**
     * What a map and a recover share: the task they await, flattened at their first poll or
     * cancel if it is a long chain (a cancel passes through the stages as a poll does).
     */
    private abstract static class Stage<T, R> extends DirectTask<R> implements Cancellable {
        private AsyncTask<T> task;
        /** Whether {@link #task} was looked at for a chain to flatten (at the first poll). */
        private boolean flat;

        Stage(AsyncTask<T> task) {
            this.task = task;
        }

        /** The task this stage awaits, flattened at the first poll or cancel if it is a long chain. */
        @SuppressWarnings("unchecked")
        final AsyncTask<T> task() {
            if (!flat) {
                flat = true;
                task = (AsyncTask<T>) flattened(task);
            }
            return task;
        }

        @Override
        public final void cancel() {
            Async.abandon(task());
        }

        @Override
        public final boolean cancelUnlessDone() {
            return Async.abandonUnlessDone(task());
        }
    }

    /**
     * An {@link #any}: a select's winner's value. Not a plain map over the select, which left a
     * value the winning handle still holds for its other awaiters to be dropped (a connection
     * closed under them) should this task's {@link Poll} not be allocated: the value came out of
     * a selection, and a map only sees that a function made it. This one remembers whether the
     * winner was a handle ({@link #readFromHandle}), as the selection does.
     */
    private static final class AnyTask<T> extends Stage<Selected<T>, T> {
        /** The {@link Selected#holder} of the selection the last poll returned the value of. */
        private Object holder;

        AnyTask(AsyncTask<Selected<T>> select) {
            super(select);
        }

        @Override
        Object pollDirect(Context cx) {
            Object v = DirectTask.pollValue(task(), cx);
            if (v == DirectTask.PENDING) {
                return v;
            }
            Selected<?> s = (Selected<?>) v;
            holder = s.holder;
            return s.value;
        }

        @Override
        boolean readFromHandle() {
            return holder == HELD_BY_A_HANDLE;
        }
    }

    /** A {@link Selected#holder}: the winner read the value from a handle, which still holds it. */
    static final Object HELD_BY_A_HANDLE = new Object();

    /**
     * What {@link #takerOf} answers for a selection or an {@code all}'s list that reached the
     * dropped place untouched from the select or all that made it: dropped, it has the receives
     * and acquires in it take back what they took ({@link #dropUnreceived}). A selection or list
     * that a function was given (a map over it, a then's first task, a task of the caller's) is
     * that function's, which may have passed its message on or released its permit: dropped, it
     * only drops its values as the runtime drops one (a connection closed), or a value went back
     * into its channel after it was received, a permit was released twice.
     */
    static final Object UNTOUCHED_RESULTS = new Object();

    /**
     * What a select's winner leaves its selection to answer for besides the value
     * ({@link Selected#holder}): {@link #HELD_BY_A_HANDLE}, the operation its value came from
     * ({@link #takerOf}), or {@code null}. Asked once per select that completes.
     */
    static Object holderOf(AsyncTask<?> task) {
        if (readFromHandle(task)) {
            return HELD_BY_A_HANDLE;
        }
        return takerOf(task);
    }

    /**
     * The operation that took the value of {@code task}'s last poll out of a shared place and
     * can put it back ({@link WaitingOp#giveBackUnreceived}: a receive its value, an acquire its
     * permit, which its value {@code null} does not show; {@link GivesBack}: a stream's read the
     * bytes its count stands for), or {@code null}: {@code task} is such
     * an operation that completed, or passes its value on untouched as its own, no function of
     * the caller's having seen it (a then whose second task is one, a timeout over one, a recover
     * whose handler did not run, a long chain run as a pipeline that passed it on so, an
     * {@link #any} won by one); or a {@link LoopTask} whose last turn passed on untouched a
     * {@link Step} such an operation took, which the loop ended with its result (the loop, which
     * keeps the step, gives it back: {@link LoopTask#giveBackStep}); or
     * {@link #UNTOUCHED_RESULTS}: the value is a selection or list that {@code task}, a select or
     * an all, made, or that it passes on so. Not a map or a then's
     * first task: their functions received the value (may have released the permit, or kept the
     * message, also out of a selection or list they were given), and the runtime cannot tell.
     * Asked of a child of {@code all} that completes, of a select's winner and on the runtime's
     * drop of a value: never on a task's poll.
     */
    static Object takerOf(AsyncTask<?> task) {
        // no task that completed has a cycle of seconds (its poll would overflow the stack), but
        // a walk that went round one would hold the worker for good: Brent's method finds one,
        // as ThenTask.tail does. Not a bound on the steps: timeouts are not flattened and a
        // then's skip stops at one, so a chain with no cycle can be deeper than any such bound
        // (70 nested timeouts, a recursive then with a timeout round each turn), and a walk
        // that stopped early took the operation's value for nobody's: dropped, the message lost
        AsyncTask<?> mark = task;
        int steps = 0;
        int power = 1;
        for (;;) {
            if (task instanceof WaitingOp<?, ?> op) {
                return op.takes() ? op : null;
            }
            if (task instanceof ThenTask<?, ?> th && th.second != null && th.first == null) {
                task = th.tail();
            } else if (task instanceof TimeoutTask<?> t) {
                task = t.task;
            } else if (task instanceof RecoverTask<?> r && !r.recovered) {
                task = r.task();
            } else if (task instanceof Pipeline p && p.untouched) {
                task = p.current;
            } else if (task instanceof AnyTask<?> any) {
                return any.holder == HELD_BY_A_HANDLE ? null : any.holder;
            } else if (task instanceof LoopTask<?, ?> loop) {
                return loop.stepTaker() == null ? null : loop;  // it gives its step back itself
            } else if (task instanceof SelectTask<?> || task instanceof AllTask<?>) {
                return UNTOUCHED_RESULTS;
            } else if (task instanceof GivesBack<?> io) {
                return io;                     // a stream's read: its bytes go back to the stream
            } else {
                return null;
            }
            if (task == mark) {
                return null;                   // round a cycle
            }
            if (++steps == power) {
                mark = task;
                power <<= 1;
                steps = 0;
            }
        }
    }

    /**
     * Nobody will receive {@code v}, a value a task returned: if {@code holder} (a
     * {@link Selected#holder}) is the operation it came from ({@link #takerOf}), that operation
     * takes it back (the value goes back into its channel, the permit is released, a read's
     * bytes go back to its stream); if it is a
     * loop, the step that ended it goes back to that step's taker, {@code v} being only the
     * step's result; if it is {@link #UNTOUCHED_RESULTS}, the selection or list {@code v} has its
     * own holders undo its values; if it is {@code null}, the value is dropped as the runtime drops one
     * ({@link DroppedValues}: a connection is closed; a selection or list, touched by a function,
     * only drops its values so); a value a handle holds ({@link #HELD_BY_A_HANDLE}) is left to
     * it. The one place where a dropped value is undone or closed.
     */
    static void dropUnreceived(Object v, Object holder) {
        if (holder instanceof WaitingOp<?, ?> op) {
            op.giveBackUnreceived(v);
        } else if (holder instanceof GivesBack<?> io) {
            io.giveBackUnreceived(v);
        } else if (holder instanceof LoopTask<?, ?> loop) {
            loop.giveBackStep();               // v is the step's result: the step goes back
        } else if (holder == UNTOUCHED_RESULTS) {
            if (v instanceof Selected<?> s) {
                s.drop(true);
            } else if (v instanceof AllResults<?> l) {
                l.drop(true);
            }
        } else if (holder == null) {
            DroppedValues.dropped(v);
        }
    }

    /**
     * The runtime drops {@code v}, the value of {@code task}'s last poll (its handle was
     * cancelled during that poll), and no handle holds it: the receive or acquire it came from
     * takes it back ({@link #takerOf}: an any won by one, a then ending in one, the operation
     * itself should the cancel come after its look at its waker), else it is dropped
     * ({@link #dropUnreceived}). Asked on that drop alone, as {@link #readFromHandle} is.
     */
    static void dropValueOf(AsyncTask<?> task, Object v) {
        dropUnreceived(v, takerOf(task));
    }

    /**
     * Whether a function given {@code v} passed it on in returning {@code r}: {@code r} is
     * {@code v}, or the {@link Step#done} that ends a loop with {@code v} (the result a
     * {@link LoopTask} completes with). A step's own type is checked only when the function
     * made a new value, so a map's usual completion pays a class check and stores nothing.
     */
    static boolean passesOn(Object r, Object v) {
        return r == v || r instanceof Step<?, ?> s && s.result == v && s.done;
    }

    /**
     * Whether a then's second task {@code second}, whose value is {@code r}, passed on the
     * (non-null) value {@code v} its function was given: {@link #passesOn}, unless {@code second}
     * took {@code r} out of a shared place itself ({@link #takerOf}: a receive, or one passed on
     * as its own). Identity alone cannot tell: a receive may return the very object the first
     * task had by coincidence ({@code Integer.valueOf(0)} is one object wherever it is made, and
     * an object sent through a channel may also be a handle's), and taken for passed on, the
     * value was the first task's, so a drop of it left the receive's take standing: the message
     * neither received nor in its channel. Nor if {@code second} reads {@code r} from a handle
     * ({@link #readFromHandle}: a promise the function completed with {@code v} and returned,
     * to hand it to others too): the handle holds it for its other awaiters, and taken for the
     * first task's, the value was dropped (a connection closed) under them. Asked only when the
     * identity holds, so a then's usual completion pays nothing more.
     */
    static boolean secondPassesOn(AsyncTask<?> second, Object r, Object v) {
        return v != null && passesOn(r, v) && takerOf(second) == null && !readFromHandle(second);
    }

    /**
     * A map. Its value is its function's, unless the function returned the very value it was
     * given (logged it, checked it and passed it on): then it is its task's, and a handle's if
     * that task read it from one, which still holds it for its other awaiters
     * ({@link #readFromHandle}). Counted as the map's own, it was closed under them when the
     * runtime dropped it (the map's task cancelled during the poll that returned it) or when its
     * Poll could not be allocated. A {@link Step#done} of the value it was given (a loop's last
     * turn ending the loop with it) passes it on too: its loop asks the map on a drop
     * ({@link LoopTask}).
     */
    private static final class MapTask<T, R> extends Stage<T, R> {
        private final Function<? super T, ? extends R> fn;
        /**
         * Whether the function returned the (non-null) value it was given; written only then, so
         * a map's usual completion stores nothing more. A boolean in the object's padding: a map
         * is 24 bytes with or without it (compressed references).
         */
        private boolean passedOn;

        MapTask(AsyncTask<T> task, Function<? super T, ? extends R> fn) {
            super(task);
            this.fn = fn;
        }

        @Override
        @SuppressWarnings("unchecked")
        Object pollDirect(Context cx) {
            Object v = DirectTask.pollValue(task(), cx);
            if (v == DirectTask.PENDING) {
                return v;
            }
            Object r = fn.apply((T) v);
            if (v != null && passesOn(r, v)) {
                passedOn = true;
            }
            return r;
        }

        /** Asked on a drop alone, so the task is looked at then, not at each completion. */
        @Override
        boolean readFromHandle() {
            return passedOn && Async.readFromHandle(task());
        }

        /** This stage's function, for a {@link Pipeline}. */
        @SuppressWarnings("unchecked")
        Object apply(Object v) {
            return fn.apply((T) v);
        }
    }

    /**
     * A recover. A poll of its task that returns {@code null} instead of a {@link Poll} counts as
     * a failure of that task, which the handler gets: a {@link Pipeline} (and a map polling the
     * task by {@link DirectTask#pollValue}) sees it as the {@link NullPointerException} it is, so
     * a recover catches it whether its chain is flattened or not, and wherever it stands.
     */
    private static final class RecoverTask<T> extends Stage<T, T> {
        private final Function<? super Throwable, ? extends T> handler;
        /**
         * Whether the handler made the value (its task failed); written only then. Otherwise the
         * value passed through from the task, and is a handle's if the task read it from one
         * ({@link #readFromHandle}): counted as the recover's own, the runtime closed it under
         * the handle's other awaiters when it dropped it.
         */
        private boolean recovered;

        RecoverTask(AsyncTask<T> task, Function<? super Throwable, ? extends T> handler) {
            super(task);
            this.handler = handler;
        }

        @Override
        public Poll<T> poll(Context cx) {
            AsyncTask<T> t = task();
            T v;
            try {
                // the task's own Poll, not a copy
                return DirectTask.pollOf(t, cx, "recover: the task's poll returned null instead of a Poll");
            } catch (Throwable e) {
                recovered = true;
                v = handler.apply(e);
            }
            try {
                return DirectTask.ready(this, v);
            } catch (Throwable e) {            // no Poll for it: nobody receives it (see DirectTask.poll)
                DirectTask.drop(v, e);
                throw e;
            }
        }

        @Override
        Object pollDirect(Context cx) {
            AsyncTask<T> t = task();
            try {
                return DirectTask.pollValue(t, cx);
            } catch (Throwable e) {
                recovered = true;
                return handler.apply(e);
            }
        }

        @Override
        boolean readFromHandle() {
            return !recovered && Async.readFromHandle(task());
        }

        /** This stage's handler, for a {@link Pipeline}. */
        Object handle(Throwable t) {
            return handler.apply(t);
        }
    }

    /**
     * A then. Its value is its second task's, unless the function passed the first one's value
     * on through a second task that is ready at once ({@code c -> Async.ready(c)}, a loop's last
     * turn {@code c -> Async.ready(Step.done(c))}): then it is the first task's, and a handle's
     * if that one read it from one, which still holds it for its other awaiters
     * ({@link #readFromHandle}). Counted as the second task's own (a ready task the function
     * made), the runtime closed it under them when it dropped it. Told at the poll that starts
     * the second task alone, by {@link Async#secondPassesOn} of the second's value and the
     * first's, which that poll still has; a second task that is pending first and later returns
     * the first's value (one the function captured) is not told apart, and its value counts as
     * the second's. So does one that took its value from a shared place itself (a receive) or
     * reads it from a handle (a promise the function completed with the value and returned),
     * whatever object it is: the handle holds it for its other awaiters.
     */
    private static final class ThenTask<T, R> extends DirectTask<R> implements Cancellable {
        /**
         * The first task until it completes, {@code null} after; kept with {@link #second} set
         * only when the second passed its value on at once ({@link #readFromHandle}): a then
         * whose second is set looks at it for nothing else.
         */
        private AsyncTask<T> first;
        private final Function<? super T, ? extends AsyncTask<R>> fn;
        private AsyncTask<R> second;

        ThenTask(AsyncTask<T> first, Function<? super T, ? extends AsyncTask<R>> fn) {
            this.first = first;
            this.fn = fn;
        }

        @Override
        public Poll<R> poll(Context cx) {
            if (second != null) {
                return tail().poll(cx);        // the second task's own Poll, not a copy
            }
            Object v = DirectTask.pollValue(first(), cx);
            if (v == DirectTask.PENDING) {
                return Poll.pending();
            }
            AsyncTask<T> f = start(v);
            Poll<R> p = tail().poll(cx);
            if (p != null && !p.isPending() && secondPassesOn(second, p.value(), v)) {
                first = f;                     // the first's value passed on: see readFromHandle
            }
            return p;
        }

        @Override
        Object pollDirect(Context cx) {
            if (second != null) {
                return DirectTask.pollValue(tail(), cx);
            }
            Object v = DirectTask.pollValue(first(), cx);
            if (v == DirectTask.PENDING) {
                return v;
            }
            AsyncTask<T> f = start(v);
            Object r = DirectTask.pollValue(tail(), cx);
            if (r != DirectTask.PENDING && secondPassesOn(second, r, v)) {
                first = f;                     // the first's value passed on: see readFromHandle
            }
            return r;
        }

        /**
         * Makes the second task of the first one's value {@code v}, dropping the first (a
         * completed task holds nothing the then needs). Returns the first, which the caller keeps
         * should the second pass {@code v} on.
         */
        private AsyncTask<T> start(Object v) {
            AsyncTask<T> f = first;
            first = null;
            second = secondFor(v);
            return f;
        }

        /**
         * The first task, flattened at a poll or cancel if it is a long chain (as a map's);
         * {@code null} once it has completed. No flag records that it was looked at, as a map's
         * does: a then is 24 bytes with its three fields, and a flag would make it 32. So a
         * first task that is itself a stage is looked at on each poll: a walk of at most
         * {@link #FLATTEN_DEPTH} + 1 stages, and of one type test for the usual first task (a
         * promise, a receive, a spawned task's handle) or for a chain already flattened.
         */
        @SuppressWarnings("unchecked")
        private AsyncTask<T> first() {
            AsyncTask<T> f = first;
            if (f != null && innerStage(f) != null) {
                AsyncTask<T> flat = (AsyncTask<T>) flattened(f);
                if (flat != f) {
                    first = f = flat;
                }
            }
            return f;
        }

        /** The second task for the first one's value {@code v}. */
        @SuppressWarnings("unchecked")
        AsyncTask<R> secondFor(Object v) {
            return Objects.requireNonNull(fn.apply((T) v), "then: fn returned null");
        }

        /**
         * The second task, skipping seconds that are themselves started thens: such a then only
         * passes polls and cancels on to its own second, so awaiting that one directly is the
         * same. A then whose function returns another then (a recursive asynchronous loop)
         * would otherwise nest one poll deeper with each turn, costing time that grew with the
         * number of turns and at last a {@link StackOverflowError}.
         *
         * <p>Thens whose functions return one another make a cycle of seconds, which a walk
         * must not follow for ever. A cycle through this then ends the walk here: polling this
         * then from its own poll then fails with {@code StackOverflowError}, as the nested polls
         * did before this method (a naive retry, a function that returns its own then). A cycle
         * that does not pass through this then (two thens returning each other, the other one
         * polled to its end first, which left its second pointing at itself) is found by
         * Brent's method, a mark moved to the walk's position at every power of two of steps,
         * which the walk meets again once it goes round: the walk stops at that then, whose own
         * poll then fails the same way. Only the skip path pays for it, one comparison a step.
         */
        @SuppressWarnings("unchecked")
        private AsyncTask<R> tail() {
            AsyncTask<R> s = second;
            if (!(s instanceof ThenTask<?, ?> t0) || t0.second == null || t0.first != null || t0 == this) {
                return s;                      // nothing to skip: most polls, and they store nothing
            }
            AsyncTask<R> mark = s;
            int steps = 0;
            int power = 1;
            // a then that kept its first (its second passed that one's value on) is not skipped:
            // its readFromHandle asks the first, which its second knows nothing of
            while (s instanceof ThenTask<?, ?> t && t.second != null && t.first == null && t != this) {
                s = (AsyncTask<R>) t.second;
                if (s == mark) {
                    break;                     // round a cycle that misses this then: see above
                }
                if (++steps == power) {
                    mark = s;
                    power <<= 1;
                    steps = 0;
                }
            }
            second = s;
            return s;
        }

        @Override
        public void cancel() {
            if (second != null) {
                Async.abandon(tail());
            } else if (first() != null) {
                Async.abandon(first);
            }
        }

        /**
         * Whether the value of the last poll is a handle's: the first task's passed on (kept
         * then) and that one read it from a handle, or else the second task's and that one a
         * handle's (see Async.readFromHandle).
         */
        @Override
        boolean readFromHandle() {
            if (second == null) {
                return false;
            }
            AsyncTask<T> f = first;
            return f != null ? Async.readFromHandle(f) : Async.readFromHandle(tail());
        }

        /** Too late if the stage it waits on has completed (the first: then the next poll starts the second). */
        @Override
        public boolean cancelUnlessDone() {
            return second != null ? Async.abandonUnlessDone(tail()) : first() == null || Async.abandonUnlessDone(first);
        }
    }

    /**
     * A loop. A task of the package's own ({@link DirectTask}), as a map is: its {@link Poll}
     * is made by {@link DirectTask#poll} after the value is in hand, which drops the value
     * should that allocation fail (a connection the last turn returned is closed), and a
     * combinator awaiting the loop reads the value without one. It made its own Poll, and an
     * {@link OutOfMemoryError} there left such a connection open, held by nobody.
     *
     * <p>Its value is its last turn's {@link Step#done} result, which that turn may have read
     * from a handle it awaited (a map over the handle making {@code Step.done} of its value, or
     * a handle whose value is the step): the handle still holds it for its other awaiters, so
     * the loop answers {@link #readFromHandle} by asking that turn. The turn is kept only when
     * it ends the loop, in the slot of the state, which no turn needs any more: a turn that goes
     * on stores and reads what it did before.
     *
     * <p>The {@link Step} itself may be a message: a turn that receives it from a channel of
     * steps (its sender decides when the loop ends), or passes such a receive's value on
     * untouched ({@link Async#takerOf} of the turn). The loop's value is then the step's result,
     * not what the receive took, and a drop of that value (a failed {@code all}, a dropped
     * selection, a failed wrap) gave nothing back: the step was neither received nor in its
     * channel. So the loop keeps the step that ended it ({@link #ended}) and is itself the taker
     * that {@code takerOf} answers for it, and its drop gives the step back to the turn's taker
     * ({@link #giveBackStep}). A step that a function made of a received value (a map over the
     * receive) is that function's: {@code takerOf} of such a turn is {@code null}, and nothing
     * goes back. The field makes a loop 32 bytes rather than 24 (12-byte header and four
     * compressed references: 28, padded to 8; with compact headers it stays 24); the turn slot
     * could not hold both, and {@link #current}, which a cancel reads, cannot hold a step
     * without a cast on every turn.
     */
    private static final class LoopTask<S, R> extends DirectTask<R> implements Cancellable {
        /**
         * The next turn's state; once the loop is done, the turn that ended it, for
         * {@link #readFromHandle} (asked on a drop alone, after that turn's poll).
         */
        private Object state;
        private final Function<? super S, ? extends AsyncTask<Step<S, R>>> step;
        private AsyncTask<Step<S, R>> current;
        /**
         * The step that ended the loop, kept for {@link #giveBackStep}; {@code null} until then.
         * Written once per loop, never by a turn that goes on.
         */
        private Step<S, R> ended;

        LoopTask(S initial, Function<? super S, ? extends AsyncTask<Step<S, R>>> step) {
            this.state = initial;
            this.step = step;
        }

        @Override
        Object pollDirect(Context cx) {
            while (true) {
                if (current == null) {
                    if (!cx.consumeBudget()) {
                        cx.waker().wake();
                        return DirectTask.PENDING;
                    }
                    @SuppressWarnings("unchecked")
                    S st = (S) state;
                    current = Objects.requireNonNull(step.apply(st), "loop: step returned null");
                }
                AsyncTask<Step<S, R>> turn = current;
                Object v = DirectTask.pollValue(turn, cx);
                if (v == DirectTask.PENDING) {
                    return DirectTask.PENDING;
                }
                current = null;
                if (v == null) {
                    // a turn's task must complete with a Step: without this check the loop failed
                    // with the VM's message about a local variable, naming nothing the caller wrote
                    throw new NullPointerException("loop: a step's task completed with null instead of a Step");
                }
                @SuppressWarnings("unchecked")
                Step<S, R> s = (Step<S, R>) v;
                if (s.done) {
                    state = turn;              // on completion alone: see readFromHandle
                    ended = s;                 // and giveBackStep
                    return s.result;
                }
                state = s.state;
            }
        }

        /**
         * Whether the last turn read the result it ended the loop with from a handle: its task
         * is one, or passes one's value on, whose value is the {@link Step} (a then ending in
         * the handle), or is a map that made {@code Step.done} of the handle's value it was given
         * ({@link Async#passesOn}). Asked only after the poll that completed the loop, so
         * {@link #state} holds that turn.
         */
        @Override
        boolean readFromHandle() {
            return state instanceof AsyncTask<?> turn && Async.readFromHandle(turn);
        }

        /**
         * The operation (or loop) that took the step ending this loop out of a shared place, as
         * {@link Async#takerOf} finds it from the last turn, or {@code null}: the loop is not
         * done, or the step is the turn's own (a function's, or a handle's). Asked on a drop
         * alone, after the poll that completed the loop.
         */
        Object stepTaker() {
            if (ended == null || !(state instanceof AsyncTask<?> turn)) {
                return null;
            }
            Object t = Async.takerOf(turn);
            return t == UNTOUCHED_RESULTS ? null : t;  // a selection or list is never a step
        }

        /**
         * Nobody received this loop's value, which its ending step's taker ({@link #stepTaker})
         * took as that step: the step, not the value, goes back ({@link Async#dropUnreceived}),
         * so the next receive gets the message whole. At most once, as the taker's own give-back.
         */
        void giveBackStep() {
            Object t = stepTaker();
            if (t != null) {
                dropUnreceived(ended, t);
            }
        }

        @Override
        public void cancel() {
            if (current != null) {
                Async.abandon(current);
                current = null;
            }
        }

        @Override
        public boolean cancelUnlessDone() {
            if (current == null) {
                return true;
            }
            if (!Async.abandonUnlessDone(current)) {
                return false;
            }
            current = null;
            return true;
        }
    }

    /**
     * The context and waker of one child of {@code all}/{@code select}: a wake marks the child
     * and wakes the parent's latest waker (only on the unmarked-to-marked transition; whoever
     * made that transition wakes the parent, so no wake-up is lost). For {@code all} that
     * transition also puts the child on the parent's ready stack; a child that is a
     * {@link JoinHandle} is never marked: its one wake is counted instead (see {@link Parent}).
     */
    private static final class Child extends AtomicBoolean implements Context, Waker {
        private static final long serialVersionUID = 1L;
        private final Parent parent;
        /** This child's index in the parent's lists. */
        final int index;
        /**
         * The child task if it is a handle and the parent is an {@code all}: then a wake never
         * marks this child (see Parent's "Handles"); otherwise null.
         */
        final JoinHandle<?> handle;
        /**
         * The next child on the parent's ready stack; written before the push's CAS, read after
         * the drain's swap, and only while this child is marked and on the stack (see Parent).
         */
        Child nextReady;
        private Context cx; // the parent's context during the parent's poll
        /** Set when the parent is done with its children: it will not poll this one again. */
        private volatile boolean dropped;
        /**
         * For an {@code all}: whether this child, not a handle itself, completed with the value of
         * a handle it awaited (a then whose second task is one, a map passing one's value on:
         * {@link Async#readFromHandle}), which that handle still holds for its other awaiters, so
         * that the all leaves it alone as it leaves a handle child's. Written and read by the
         * parent's polls and its cancel alone; a boolean in the object's padding (40 bytes with
         * or without it).
         */
        boolean heldByAHandle;

        Child(Parent parent, int index, JoinHandle<?> handle) {
            super(true); // polled by the first poll
            this.parent = parent;
            this.index = index;
            this.handle = handle;
        }

        @Override
        public Waker waker() {
            return this;
        }

        @Override
        public boolean consumeBudget() {
            Context c = cx;
            return c == null || c.consumeBudget();
        }

        /**
         * Whether waking this child can no longer matter: its parent dropped it, or the waker of
         * the parent's own poll expired (the task around it is done). Lets a long-lived handle
         * that this child awaited prune its entry (see JoinHandle's overview).
         */
        @Override
        public boolean expired() {
            if (dropped) {
                return true;
            }
            Waker w = parent.waker;
            return w != null && w.expired();
        }

        @Override
        public void wake() {
            JoinHandle<?> h = handle;
            if (h != null) {                   // the handle's one wake, after its outcome
                if (h.succeeded()) {
                    parent.handleSucceeded(index, h.succeededValue());
                } else {
                    parent.failed = this;      // polled at the parent's next poll: it throws
                    parent.wakeParent();
                }
                return;
            }
            if (!getAndSet(true)) {
                if (parent.tracksReady && !parent.pushReady(this)) {
                    return;                    // the stack was not empty: its first pusher wakes the parent
                }
                parent.wakeParent();
            }
        }
    }

    /**
     * The children of {@code all} or {@code select}, each with its {@link Child} waker.
     *
     * <p><b>The ready stack ({@code all}).</b> A parent that scanned every child at every poll
     * paid an atomic read-modify-write per child per poll: joining n spawned tasks, woken about
     * once per finished child, cost O(n²) (10,000 children on one worker: about 250 ms, against
     * 0.6 ms for {@code CompletableFuture.allOf}; about 1 ms now). So {@code all} keeps a Treiber stack of the children
     * woken since its last poll, as Rust's {@code FuturesUnordered} keeps a ready queue, and polls
     * only those after its first poll (which polls all, each born marked). Invariant: a child is
     * on the stack only while it is marked, and at most once. A wake pushes the child only on its
     * unmarked-to-marked transition; the parent's poll swaps the whole stack out, and for each
     * child read off it first reads {@code nextReady}, then clears the mark and polls it (see
     * {@link #pollChild}). A wake before the clear finds the child marked and does nothing: the
     * poll that follows the clear sees what it signalled. A wake after the clear marks and pushes
     * it again (safe: the drain has already read its link). So no wake-up is lost and the stack
     * never links a child twice. jcstress {@code AllReadyStackTests} races the wakes with a poll
     * (and catches a mark cleared after the child's poll, and the wrong wake skipped below).
     *
     * <p>Only the wake whose push finds the stack empty wakes the parent: while the stack is not
     * empty, the child that made it so has woken the parent (or is about to, after its push), and
     * the poll that wake brings drains every child pushed since, or an earlier poll drained them
     * and a later push found the stack empty again. Children finishing on other workers while the
     * parent waits to run so cost the parent's task one wake, not one each.
     *
     * <p><b>Handles ({@code all}).</b> A child that is a {@link JoinHandle} (a spawned task, a
     * promise) is ready once its outcome is out, and only then; if the outcome is a value, the
     * parent need not run for it until there is nothing else to wait for. Joining n spawned
     * tasks that finish on the parent's worker otherwise polls the parent after each (the woken
     * parent runs next, from the LIFO slot), and a parent that collects the values itself at the
     * end reads every handle from another core's cache. So such a child is polled only by the
     * first poll; after that its wake, on the thread that completed the handle, stores the value
     * in the parent's results and counts the child out of {@code unsettled}, and only the wake
     * that takes the count to zero wakes the parent. A handle wakes a waker it holds once, after
     * its outcome is out (each entry of its waiter stack is released once: see JoinHandle's
     * overview), and holds the child's waker only if the first poll found it pending (a poll
     * that returns the outcome registered nothing, and the first poll is the only poll of a
     * pending handle child). So each handle child is counted, and its result slot written,
     * exactly once: by the first poll if it was ready there, by its one wake otherwise; no
     * per-child claim is needed. {@code unsettled} starts at the number of handle children plus
     * one, the first poll's own share, which that poll releases with what it counted in one
     * step, so no wake reaches zero during the first poll. Every wake writes its slot before
     * its read-modify-write of the count, and the parent reads the count (its own
     * read-modify-write, or a volatile read at a later poll) before it reads the slots, so a
     * parent that sees zero sees every value. No wake-up is lost: the wake that takes the count
     * to zero wakes the parent after it, and a poll before it reads a non-zero count and stays
     * pending for that wake. A wake with a failure (or a cancellation) records its child in
     * {@code failed} and wakes the parent at once, whose next poll polls that child and so
     * fails. These wakes neither mark nor push, so the ready stack's rule above holds for the
     * other children: had they pushed without waking, a later push would have found the stack
     * non-empty and skipped a wake that nobody else would make. jcstress
     * {@code AllHandleCountTests} and {@code AllHandleFailureTests} race the completions with
     * the first poll.
     *
     * <p>{@code select}, whose lists are short and whose ties go to the lower index, scans in list
     * order and keeps no stack.
     */
    private abstract static class Parent {
        private static final VarHandle READY;
        private static final VarHandle UNSETTLED;

        static {
            try {
                MethodHandles.Lookup l = MethodHandles.lookup();
                READY = l.findVarHandle(Parent.class, "ready", Child.class);
                UNSETTLED = l.findVarHandle(Parent.class, "unsettled", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        volatile Waker waker;
        final AsyncTask<?>[] tasks;
        final Child[] children;
        /** Whether wakes push children on {@link #ready} ({@code all}). */
        final boolean tracksReady;
        /**
         * Children this parent's polls have looked at, for {@code AsyncCombinatorTest}, which pins
         * the cost of a poll of {@code all} to the children woken since the previous one. Written
         * only by the polling thread.
         */
        long examined;
        /** The ready stack's top: children woken since the last drain; accessed through READY. */
        @SuppressWarnings("unused")
        private volatile Child ready;
        /** A handle child that completed without a value; the next poll polls it (and fails). */
        volatile Child failed;
        /** Handle children not yet counted, plus one until the first poll ends; through UNSETTLED. */
        @SuppressWarnings("unused")
        private volatile int unsettled;

        Parent(List<? extends AsyncTask<?>> list, boolean tracksReady) {
            tasks = list.toArray(new AsyncTask<?>[0]);
            for (AsyncTask<?> t : tasks) {
                Objects.requireNonNull(t, "a task in the list is null");
            }
            this.tracksReady = tracksReady;
            children = new Child[tasks.length];
            int h = 0;
            for (int i = 0; i < tasks.length; i++) {
                JoinHandle<?> handle = tracksReady && tasks[i] instanceof JoinHandle ? (JoinHandle<?>) tasks[i] : null;
                if (handle != null) {
                    h++;
                }
                children[i] = new Child(this, i, handle);
            }
            UNSETTLED.set(this, h + 1);        // plain: no wake comes before the first poll, after publication
        }

        /** Pushes {@code c} on the ready stack; whether the stack was empty (then wake the parent). */
        final boolean pushReady(Child c) {
            Child top;
            do {
                top = (Child) READY.getAcquire(this);
                c.nextReady = top;
            } while (!READY.compareAndSet(this, top, c));
            return top == null;
        }

        /** Takes the whole ready stack (newest first), leaving it empty. */
        final Child drainReady() {
            return (Child) READY.getAndSet(this, (Child) null);
        }

        /** Counts {@code n} handle children done; whether none is left uncounted now. */
        final boolean settle(int n) {
            return (int) UNSETTLED.getAndAdd(this, -n) == n;
        }

        /** Whether every handle child was counted and the first poll has ended. */
        final boolean allSettled() {
            return unsettled == 0;
        }

        /** A handle child's wake with its value (see the overview); only {@code all} has them. */
        void handleSucceeded(int index, Object value) {
            throw new IllegalStateException("no handle children here");
        }

        final void wakeParent() {
            Waker w = waker;
            if (w != null) {
                w.wake();
            }
        }

        /**
         * Polls child {@code i} if it was woken (clearing its mark first); null if it was not
         * polled (a child whose poll returns null throws {@link NullPointerException}). The
         * plain read first spares an unmarked child the read-modify-write: a wake that marks it
         * after that read wakes the parent, which polls again.
         */
        final Poll<?> pollChild(int i, Context cx) {
            examined++;
            Child c = children[i];
            if (!c.get() || !c.getAndSet(false)) {
                return null;
            }
            c.cx = cx;
            try {
                // null here means "not polled" to the callers, so a child's null Poll (a broken
                // task) must fail the parent, as it fails the task spawned alone or under map,
                // rather than read as pending for good and hang whoever awaits the parent
                return DirectTask.pollOf(tasks[i], c,
                        "a task in the list returned null from poll instead of a Poll");
            } finally {
                c.cx = null;
            }
        }

        /**
         * As {@link #pollChild}, for a child still running ({@code null} for one done); a child
         * whose poll throws fails the parent: the others are cancelled and the throw passes on.
         */
        final Poll<?> pollRunningChild(int i, Context cx) {
            if (tasks[i] == null) {
                return null;
            }
            try {
                return pollChild(i, cx);
            } catch (Throwable t) {
                childFailed(i);
                throw t;
            }
        }

        /** Child {@code i}'s poll threw: the parent fails with it, and the others are cancelled. */
        final void childFailed(int i) {
            tasks[i] = null;
            cancelAllBut(-1);
        }

        /**
         * Drops an unfinished child: {@link Async#cancel}, which leaves a spawned task's
         * {@link JoinHandle} running ({@code all} only stops awaiting it, as it documents).
         */
        void drop(AsyncTask<?> child) {
            Async.cancel(child);
        }

        /**
         * The parent is done (it has its result, failed or was cancelled): cancels the children
         * still running except {@code keep}, and marks every child dropped, so that the
         * handles they await (a shutdown signal, say) can prune their entries.
         */
        final void cancelAllBut(int keep) {
            for (int i = 0; i < tasks.length; i++) {
                children[i].dropped = true;
                if (i != keep && tasks[i] != null) {
                    AsyncTask<?> t = tasks[i];
                    tasks[i] = null;
                    try {
                        drop(t);
                    } catch (Throwable e) {
                        // a cancel must not throw (Cancellable); one that does is reported, as
                        // the runtime reports it, and must not cost the other children their
                        // cancel nor the parent its outcome (a winner's value already taken)
                        AsyncRuntime.reportStray(e);
                    }
                }
            }
            if (keep < 0) {
                dropValues();
            }
        }

        /**
         * The parent ends without a result (it failed or was cancelled): the children's values
         * it holds will never be received ({@code all} only).
         */
        void dropValues() {
        }
    }

    /**
     * Run, if set, as an {@code all} makes its result list or a {@code select} its selection: a
     * seam for tests, which throw from it what a full heap throws there. Read once per completed
     * {@code all} or {@code select}, never by a pending poll.
     */
    static volatile Runnable beforeResultContainer;

    private static final class AllTask<T> extends Parent implements AsyncTask<List<T>>, Cancellable {
        /** The values, by index; a handle child's slot is written by its wake (see Parent). */
        private final Object[] results;
        private int remaining;
        /** Whether the first poll (which polls every child) has run. */
        private boolean started;
        /** Handle children the first poll found pending: their wakes count them (see Parent). */
        private int awaited;
        /** Whether the results were handed out (the list returned ready). */
        private boolean delivered;
        /**
         * The operations whose values completed here, by index, bare or passed on by a child
         * ({@link Async#takerOf}): a receive, which took its value out of its channel, and an
         * acquire, which holds a permit its value ({@code null}) does not show; or
         * {@link Async#UNTOUCHED_RESULTS} for a child's own selection or list. {@link #dropValues}
         * has them take those back should nobody receive them (and the list hands them on to the
         * runtime's drop). Kept as they complete, their task slots being cleared then;
         * {@code null} until the first one does, so an all without one allocates nothing for
         * them.
         */
        private Object[] takers;

        AllTask(List<? extends AsyncTask<? extends T>> list) {
            super(list, true);
            results = new Object[tasks.length];
            remaining = tasks.length;
        }

        @Override
        @SuppressWarnings("unchecked")
        public Poll<List<T>> poll(Context cx) {
            Waker w = cx.waker();
            if (w == null) {
                cancelAllBut(-1);  // this poll throws: nobody will cancel the children
                throw noWaker("all");
            }
            waker = w;
            if (!started) {
                started = true;
                int counted = 1;               // the first poll's own share of unsettled
                for (int i = 0; i < tasks.length && remaining > 0; i++) {
                    counted += pollOne(i, cx, true);
                }
                if (awaited > 0 && remaining > 0 && settle(counted)) {
                    handlesDone();
                }
            } else {
                Child f = failed;
                if (f != null) {
                    pollOne(f.index, cx, false); // throws: its handle holds a failure
                }
                for (Child c = drainReady(); c != null && remaining > 0; ) {
                    Child next = c.nextReady;  // before the poll: a wake after it may push c again
                    pollOne(c.index, cx, false);
                    c = next;
                }
                if (awaited > 0 && allSettled()) {
                    handlesDone();
                }
            }
            if (remaining > 0) {
                return Poll.pending();
            }
            Poll<List<T>> ready;
            try {
                Runnable seam = beforeResultContainer;
                if (seam != null) {
                    seam.run();
                }
                boolean[] fromHandle = null;
                for (int i = 0; i < children.length; i++) {
                    if (children[i].handle != null || children[i].heldByAHandle) {
                        if (fromHandle == null) {
                            fromHandle = new boolean[children.length];
                        }
                        fromHandle[i] = true;
                    }
                }
                Object[] held = takers;
                ready = Poll.ready(held == null
                        ? new AllResults<>(results, fromHandle)
                        : new AllResultsWithTakers<>(results, fromHandle, held));
            } catch (Throwable t) {
                // an OutOfMemoryError making the list: this poll throws, so nobody receives the
                // values and nobody cancels this task; they are dropped here (a connection closed),
                // as a failed all drops them. Marked delivered first, they stayed open for good
                dropValues();
                throw t;
            }
            delivered = true;                  // only once the list exists to hand them out
            return ready;
        }

        /**
         * A value an {@code all} that fails or is cancelled drops is received by nobody: one that
         * is a connection of the library (an accept's) is closed, as the runtime closes one it
         * drops ({@link DroppedValues}); kept, the socket leaked and its peer waited for good. Not
         * a handle child's value, which its handle still holds for whoever else awaits it, nor
         * one a child passed on from a handle it awaited (a then ending in a handle, a map
         * passing its value on), which was closed under that handle's other awaiters. A value a
         * receive took, and a permit an acquire holds, go back instead ({@link #takers}): the
         * message went to nobody, and the semaphore had one permit fewer for good.
         */
        @Override
        void dropValues() {
            if (delivered) {
                return;
            }
            Object[] held = takers;
            takers = null;                     // once: a later drop (a cancel after the failure) finds none
            for (int i = 0; i < results.length; i++) {
                Object v = results[i];
                Object taker = held == null ? null : held[i];
                if ((v != null || taker != null) && children[i].handle == null && !children[i].heldByAHandle) {
                    results[i] = null;
                    AllResults.dropOne(v, taker);
                }
            }
        }

        /**
         * Polls child {@code i} if it is still running (and, unless it is a handle, was woken),
         * and records its result. For a handle child: 1 if it was ready, to be counted by the
         * caller (no wake will count it: see Parent), else 0, and then its wake counts it (the
         * first poll's pending ones are {@link #awaited}). A child whose poll throws fails the
         * parent.
         */
        private int pollOne(int i, Context cx, boolean first) {
            Child c = children[i];
            JoinHandle<?> h = c.handle;
            if (h == null) {
                Poll<?> p = pollRunningChild(i, cx);
                if (p != null && p.isReady()) {
                    // asked once per child that completes, before its task is let go
                    AsyncTask<?> t = tasks[i];
                    c.heldByAHandle = Async.readFromHandle(t);
                    Object taker = c.heldByAHandle ? null : takerOf(t);  // a value to take back
                    if (taker != null) {
                        keepTaker(i, taker);
                    }
                    collect(i, p.value());
                }
                return 0;
            }
            if (tasks[i] == null) {
                return 0;
            }
            examined++;
            Object v;
            try {
                v = h.pollOutcome(c);          // pending: c is registered, its one wake comes later
            } catch (Throwable t) {
                childFailed(i);
                throw t;
            }
            if (v == DirectTask.PENDING) {
                if (first) {
                    awaited++;
                }
                return 0;
            }
            collect(i, v);
            return 1;
        }

        /** Keeps the completed receive or acquire of child {@code i} (see {@link #takers}). */
        private void keepTaker(int i, Object op) {
            if (takers == null) {
                takers = new Object[tasks.length];
            }
            takers[i] = op;
        }

        @Override
        void handleSucceeded(int index, Object value) {
            results[index] = value;            // before the count's read-modify-write: see Parent
            if (settle(1)) {
                wakeParent();                  // the last handle to complete
            }
        }

        /** Every awaited handle child's wake has stored its value (see Parent). */
        private void handlesDone() {
            remaining -= awaited;
            awaited = 0;
        }

        private void collect(int i, Object value) {
            results[i] = value;
            tasks[i] = null;
            children[i].dropped = true;        // done: its waker's entries elsewhere are stale
            remaining--;
        }

        @Override
        public void cancel() {
            cancelAllBut(-1);
        }
    }

    /**
     * The list an {@code all} completes with: unmodifiable, over its results. A class of the
     * library's own, so that the runtime, dropping it (its task's handle cancelled during the poll
     * that returned it, see {@code TaskCell.finish}), drops the values in it as the {@code all}
     * drops them when it fails ({@link AllTask#dropValues}): a connection an accept in it
     * returned was left open for good, held by nobody, its peer waiting. (Its values were once
     * in a plain unmodifiable list, which the runtime cannot tell from a user's list that may be
     * shared.) A handle child's value is left alone: its handle still holds it for whoever else
     * awaits it. {@link Selected} does the same for a {@code select}'s winner. Only a list that
     * no function was given ({@link Async#UNTOUCHED_RESULTS}) has its receives and acquires
     * take back their values and permits: one a map was given may have had its message passed
     * on, its permit released.
     */
    private static class AllResults<T> extends AbstractList<T> implements RandomAccess {
        static {
            DroppedValues.closeWhenDropped(AllResults.class, l -> l.drop(false));
        }

        private final Object[] values;
        /**
         * Which values a handle holds (a handle child's, or one a child passed on from a handle):
         * not dropped with the list; null if none.
         */
        private final boolean[] fromHandle;

        AllResults(Object[] values, boolean[] fromHandle) {
            this.values = values;
            this.fromHandle = fromHandle;
        }

        /**
         * Drops {@code v}, which nobody received, as {@link Async#dropUnreceived} does: given back
         * by {@code taker} if that is the receive or acquire it came from, else closed if it is a
         * connection. A throw (a waker's, a closer's) is reported: the other values are still
         * given back or closed.
         */
        static void dropOne(Object v, Object taker) {
            try {
                dropUnreceived(v, taker);
            } catch (Throwable e) {
                AsyncRuntime.reportStray(e);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get(int index) {
            return (T) values[index];
        }

        @Override
        public int size() {
            return values.length;
        }

        /**
         * Drops the values but a handle's: if {@code untouched} (no function was given this
         * list), those that receives or acquires took are undone ({@link #takers}), else dropped
         * as a value a function was given is (a connection closed).
         */
        final void drop(boolean untouched) {
            dropAll(untouched ? takers() : null);
        }

        /** The receives and acquires of the values by index ({@link AllTask#takers}), or null. */
        Object[] takers() {
            return null;
        }

        /** Drops the values but a handle's, those of {@code takers} (null: none) given back. */
        private void dropAll(Object[] takers) {
            for (int i = 0; i < values.length; i++) {
                if (fromHandle == null || !fromHandle[i]) {
                    dropOne(values[i], takers == null ? null : takers[i]);
                }
            }
        }
    }

    /**
     * The list of an {@code all} in which receives or acquires completed ({@link AllTask#takers}):
     * the runtime, dropping it untouched, has them take back their values and permits, which
     * nobody received. A class of its own, so that the usual list stays 24 bytes (with its
     * AbstractList's count, a third field would make it 32); registered by its exact class as
     * the usual one is.
     */
    private static final class AllResultsWithTakers<T> extends AllResults<T> {
        static {
            DroppedValues.closeWhenDropped(AllResultsWithTakers.class, l -> l.drop(false));
        }

        private final Object[] takers;

        AllResultsWithTakers(Object[] values, boolean[] fromHandle, Object[] takers) {
            super(values, fromHandle);
            this.takers = takers;
        }

        @Override
        Object[] takers() {
            return takers;                     // given back once: an operation given back takes nothing back again
        }
    }

    private static final class SelectTask<T> extends Parent
            implements AsyncTask<Selected<T>>, Cancellable {

        SelectTask(List<? extends AsyncTask<? extends T>> list) {
            super(list, false);
        }

        /** A spawned task that lost (or that a cancelled select drops) is cancelled, as documented. */
        @Override
        void drop(AsyncTask<?> child) {
            Async.abandon(child);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Poll<Selected<T>> poll(Context cx) {
            Waker w = cx.waker();
            if (w == null) {
                cancelAllBut(-1);  // this poll throws: nobody will cancel the children
                throw noWaker("select");
            }
            waker = w;
            for (int i = 0; i < tasks.length; i++) {
                Poll<?> p = pollRunningChild(i, cx);
                if (p != null && p.isReady()) {
                    // a handle, or a task passing one's value on (a map over it), or the receive
                    // or acquire the value came from: read on a win alone
                    Object holder = holderOf(tasks[i]);
                    tasks[i] = null;
                    cancelAllBut(i);
                    T v = (T) p.value();
                    try {
                        Runnable seam = beforeResultContainer;
                        if (seam != null) {
                            seam.run();
                        }
                        return Poll.ready(new Selected<>(i, v, holder));
                    } catch (Throwable t) {
                        // an OutOfMemoryError making the selection: this poll throws, so nobody
                        // receives the winner's value; it is dropped (a connection closed), as a
                        // dropped selection drops it, unless its handle still holds it for others
                        if (holder == null) {
                            DirectTask.drop(v, t);
                        } else {
                            dropUnreceived(v, holder);   // a receive's value goes back, an acquire's permit
                        }
                        throw t;
                    }
                }
            }
            return Poll.pending();
        }

        @Override
        public void cancel() {
            cancelAllBut(-1);
        }
    }

    private static final class SleepTask implements AsyncTask<Void>, Cancellable {
        private final long deadline;
        private Timers.Entry entry;

        SleepTask(long deadline) {
            this.deadline = deadline;
        }

        @Override
        public Poll<Void> poll(Context cx) {
            if ((entry != null && entry.fired()) || System.nanoTime() - deadline >= 0) {
                cancel();
                return Poll.ready(null);
            }
            Waker w = cx.waker();
            if (w == null) {
                cancel();          // this poll throws: nobody will cancel the entry
                throw noWaker("sleep");
            }
            if (entry == null) {
                entry = Timers.schedule(deadline, w);
            } else {
                entry.setWaker(w);
                if (entry.fired()) { // fired with the old waker while we swapped it
                    return Poll.ready(null);
                }
            }
            return Poll.pending();
        }

        @Override
        public void cancel() {
            if (entry != null) {
                entry.cancel();
            }
        }
    }

    private static final class TimeoutTask<T> implements AsyncTask<T>, Cancellable {
        private final AsyncTask<T> task;
        private final long deadline;
        private final Duration duration;
        private Timers.Entry entry;

        TimeoutTask(AsyncTask<T> task, long deadline, Duration duration) {
            this.task = task;
            this.deadline = deadline;
            this.duration = duration;
        }

        @Override
        public Poll<T> poll(Context cx) {
            Waker w = cx.waker();
            if (w == null) {
                cancel();          // this poll throws: nobody will cancel the entry or the task
                throw noWaker("timeout");
            }
            Poll<T> p = pollTask(cx);
            if (p.isReady()) {
                return p;
            }
            if (!expired()) {
                if (entry == null) {
                    try {
                        entry = Timers.schedule(deadline, w);
                    } catch (Throwable t) {
                        // this poll throws, so this task is finished and nobody will cancel it:
                        // the pending task must not stay where it waits (a receive in a channel's
                        // queue would take the next value and never return it)
                        Async.abandon(task);
                        throw t;
                    }
                } else {
                    entry.setWaker(w);
                }
                if (!entry.fired()) { // else it fired with an older waker while we set this one
                    return Poll.pending();
                }
            }
            // the deadline has passed: withdraw the task, unless it completed since the poll above
            // (a send a receiver took meanwhile): then that completion is the outcome, not a timeout.
            // A poll that finds a stage of it completed (a then's first task) may start the next
            // one (a then's last send), which a receiver can take before the withdrawal in turn:
            // so each poll that leaves the task pending is followed by another cancelUnlessDone,
            // never by a plain cancel, which cannot undo that send. Each "too late" is a stage
            // that completed, so this ends (a loop's turns are bounded by the poll's budget)
            while (!Async.abandonUnlessDone(task)) {
                p = pollTask(cx);
                if (p.isReady()) {
                    return p;
                }
            }
            throw timedOut();
        }

        private Poll<T> pollTask(Context cx) {
            Poll<T> p;
            try {
                p = DirectTask.pollOf(task, cx, "timeout: the task's poll returned null instead of a Poll");
            } catch (Throwable t) {
                cancelTimer();
                throw t;
            }
            if (p.isReady()) {
                cancelTimer();
            }
            return p;
        }

        private boolean expired() {
            return (entry != null && entry.fired()) || System.nanoTime() - deadline >= 0;
        }

        private CompletionException timedOut() {
            cancel();
            return new CompletionException(new TimeoutException("timed out after " + duration));
        }

        private void cancelTimer() {
            if (entry != null) {
                entry.cancel();
            }
        }

        @Override
        public void cancel() {
            cancelTimer();
            Async.abandon(task);
        }

        /**
         * Too late if the task completed since the last poll (a send a receiver took): the next
         * poll returns that outcome. Passed on, so that a timeout around this one (an overall
         * deadline around a per-attempt one) reports a delivered send as this one does.
         */
        @Override
        public boolean cancelUnlessDone() {
            if (!Async.abandonUnlessDone(task)) {
                return false;
            }
            cancelTimer();
            return true;
        }
    }

}
