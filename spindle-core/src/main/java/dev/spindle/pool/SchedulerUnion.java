/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.internal.Closing;
import dev.spindle.internal.jfr.JfrGate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Several schedulers behind one: each task goes to the member named by its
 * {@link Hints#schedulerIndex()}, so groups of work are isolated on pools of their own.
 *
 * <p>A typical use keeps latency-sensitive control work away from bulk data processing: the two
 * groups run on separate threads, so a burst of bulk tasks cannot delay a control task behind
 * it in a shared queue.
 *
 * <pre>{@code
 * WorkStealingPool control = WorkStealingPool.builder().workers(1).name("control").build();
 * WorkStealingPool bulk = WorkStealingPool.builder().workers(8).name("bulk").build();
 * try (SchedulerUnion union = SchedulerUnion.owning(control, bulk)) {
 *     union.execute(() -> rebalance(), Hints.DEFAULT);                        // member 0: control
 *     union.execute(() -> compress(block), Hints.DEFAULT.withSchedulerIndex(1)); // member 1: bulk
 * }                                                                           // closes both pools
 * }</pre>
 *
 * <h2>Routing</h2>
 *
 * <p>{@link #execute(Runnable, Hints)} passes the task and the hints, unchanged, to member
 * {@code hints.schedulerIndex()}; {@link #execute(Runnable)} uses member 0. An index outside
 * {@code [0, size())} throws {@link IllegalArgumentException} and the task is not run. A
 * member's {@link RejectedExecutionException} reaches the caller unchanged.
 *
 * <h2>Who owns the members</h2>
 *
 * <ul>
 *   <li>{@link #of} <em>borrows</em> its members: shutting the union down only makes the union
 *       reject new tasks (but see below for what a member's own task submits); the members keep
 *       running and their owner shuts them down. The union counts as terminated once it is shut
 *       down and every member that is an {@link ExecutorService} has terminated.</li>
 *   <li>{@link #owning} <em>owns</em> its members: {@link #shutdown()}, {@link #shutdownNow()}
 *       and {@link #close()} are passed on to every member that is an {@link ExecutorService}
 *       (members that are only {@link AutoCloseable} are closed by {@link #close()}).</li>
 * </ul>
 *
 * <p>Either way, once the union is shut down, a task that a task running on a Spindle pool
 * member routes back to that member is passed on (an owned member's graceful shutdown runs it
 * as it runs what its tasks submit directly; a borrowed member is still running); every other
 * task is rejected. Work accepted before the shutdown thus finishes its further steps: an
 * actor whose mailbox still holds messages goes on to its next turn, where a borrowing union
 * refused it, the actor ended as rejected and those messages became dead letters.
 *
 * <p>The union queues nothing itself: {@link #shutdownNow()} of an owning union returns the
 * members' unstarted tasks; of a borrowing union, an empty list.
 *
 * <p>{@code invokeAll} and {@code invokeAny} route their tasks to member 0 and wait for them. Called
 * from a worker of member 0 they are that pool's own (see {@link #invokeAll(Collection)}); called
 * from a worker of another Spindle pool they wait as a {@linkplain dev.spindle.Spindle#blocking blocking
 * section}, as the pools' own do: a task a worker submits may go where only that worker runs it
 * (a work-sharing worker's slot), and a pool compensates only for a wait it is told of
 * (see {@code CompensatingExecutorService}). {@code submit} routes its task to member 0 too;
 * when that is a {@link WorkStealingPool}, it returns that pool's own kind of future, whose
 * {@code get} on one of its workers helps as the pool's own {@code submit}'s does.
 */
public final class SchedulerUnion extends CompensatingExecutorService implements Scheduler, AutoCloseable {

    private final Scheduler[] members;
    /** Package-private: a test replaces a counter with one whose add fails. */
    final LongAdder[] routed;
    /**
     * Tasks {@link #execute(Runnable, Hints)} routed whose add to {@link #routed} threw, member by
     * member (see there), and tasks of member 0's own {@code invokeAll} or {@code invokeAny}
     * whose add threw as they started ({@link CountedCallable}); made with the union, so adding
     * to it allocates nothing.
     */
    private final AtomicLongArray routedUncounted;
    private final boolean owning;
    private volatile boolean shutdown;

    private SchedulerUnion(Scheduler[] members, boolean owning) {
        Objects.requireNonNull(members, "members");
        if (members.length == 0) {
            throw new IllegalArgumentException("a SchedulerUnion needs at least one member");
        }
        this.members = members.clone();
        this.routed = new LongAdder[members.length];
        this.routedUncounted = new AtomicLongArray(members.length);
        for (int i = 0; i < members.length; i++) {
            Objects.requireNonNull(this.members[i], () -> "members contains null");
            routed[i] = new LongAdder();
        }
        this.owning = owning;
    }

    /**
     * A union that borrows {@code members}: the caller keeps ownership and shuts them down.
     *
     * @param members the schedulers, member 0 first; at least one
     * @return a union that routes to them and leaves their lifecycle to the caller
     * @throws IllegalArgumentException if there are no members
     * @throws NullPointerException if {@code members} or one of them is null
     */
    public static SchedulerUnion of(Scheduler... members) {
        return new SchedulerUnion(members, false);
    }

    /**
     * A union that owns {@code members}: shutting it down or closing it does the same to them.
     *
     * @param members the schedulers, member 0 first; at least one
     * @return a union that routes to them and shuts them down with itself
     * @throws IllegalArgumentException if there are no members
     * @throws NullPointerException if {@code members} or one of them is null
     */
    public static SchedulerUnion owning(Scheduler... members) {
        return new SchedulerUnion(members, true);
    }

    /**
     * A builder, for unions assembled step by step:
     * {@code SchedulerUnion.builder().add(control).add(bulk).owning(true).build()}.
     *
     * @return a builder with no members, not owning
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Assembles a {@link SchedulerUnion}; members keep the order in which they are added. */
    public static final class Builder {
        private final List<Scheduler> members = new ArrayList<>();
        private boolean owning;

        private Builder() {
        }

        /**
         * Adds the next member; its index is the number of members added before it.
         *
         * @param member the scheduler to add
         * @return this builder
         * @throws NullPointerException if {@code member} is null
         */
        public Builder add(Scheduler member) {
            members.add(Objects.requireNonNull(member, "member"));
            return this;
        }

        /**
         * Whether the union owns its members; default {@code false}.
         *
         * @param owning true to shut down and close the members with the union
         * @return this builder
         */
        public Builder owning(boolean owning) {
            this.owning = owning;
            return this;
        }

        /**
         * Builds the union.
         *
         * @return the union of the members added, in their order
         * @throws IllegalArgumentException if no member was added
         */
        public SchedulerUnion build() {
            return new SchedulerUnion(members.toArray(new Scheduler[0]), owning);
        }
    }

    /**
     * The tasks that {@link #shutdownNow()} drained from the members that stopped, attached (as
     * a suppressed exception) to the failure it rethrows when a member's {@code shutdownNow()}
     * throws: the failure replaces the return value, and without it they would be lost, neither
     * run nor cancellable. It carries no stack trace then; its own is the failure's. A failure
     * built with suppression disabled cannot hold it; then this is thrown instead, with that
     * failure as its cause.
     */
    public static final class UnstartedTasks extends RuntimeException {
        private static final long serialVersionUID = 1L;

        /** Not serialised: tasks are rarely serialisable, and they mean nothing in another JVM. */
        private final transient List<Runnable> tasks;

        /**
         * @param tasks the drained tasks, copied
         * @param cause {@code null} for one attached to the failure; else the failure, which
         *     refused it, and this is thrown in its place with a stack trace of its own
         */
        UnstartedTasks(List<Runnable> tasks, Throwable cause) {
            super(tasks.size() + " unstarted task" + (tasks.size() == 1 ? "" : "s")
                    + " drained from the members that stopped", cause, false, cause != null);
            this.tasks = Collections.unmodifiableList(new ArrayList<>(tasks));
        }

        /**
         * The drained tasks, in the order of their members and, within a member, as its
         * {@code shutdownNow()} returned them.
         *
         * @return an unmodifiable list; empty after deserialisation
         */
        public List<Runnable> tasks() {
            return tasks == null ? List.of() : tasks;
        }
    }

    /** Runs {@code task} on member 0. */
    @Override
    public void execute(Runnable task) {
        execute(task, Hints.DEFAULT);
    }

    /**
     * Runs {@code task} on member {@code hints.schedulerIndex()}, passing the hints on. Once the
     * member accepted it, this returns normally: a throw means the task was not queued.
     *
     * @throws IllegalArgumentException if the index is not below {@link #size()}
     * @throws RejectedExecutionException if the union is shut down (unless the caller is a worker
     *     of the member, which then decides), or the member rejects
     * @throws NullPointerException if {@code task} or {@code hints} is null
     */
    @Override
    public void execute(Runnable task, Hints hints) {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(hints, "hints");
        int i = hints.schedulerIndex();
        if (i >= members.length) {
            throw new IllegalArgumentException("schedulerIndex " + i + " is out of range: this union has "
                    + members.length + " member" + (members.length == 1 ? "" : "s"));
        }
        Scheduler member = members[i];
        if (shutdown && !(member instanceof PoolCore p && p.isWorkerOfThisPool())) {
            // a member still takes what its own running tasks submit: an owned one, shut down
            // with the union, as its graceful shutdown promises; a borrowed one, still running,
            // as it would have before. Everything else is refused here, recorded as the pools
            // record theirs (a union has no name: its toString stands for one)
            String union = toString();
            throw JfrGate.rejected(union, new RejectedExecutionException(union + " is shut down"));
        }
        member.execute(task, hints);
        try {
            routed[i].increment();
        } catch (Throwable e) {
            // the member has the task, which will run: thrown to the caller, this said it was
            // refused, and a caller that tried again ran it twice. A LongAdder's add under
            // contention allocates a cell (an OutOfMemoryError on a full heap, its state as it
            // was); the task is counted here instead, in an array made with the union
            routedUncounted.getAndIncrement(i);
        }
    }

    /**
     * The future {@code submit} returns, for a task it routes to member 0: member 0's own when
     * that is a {@link WorkStealingPool}, whose {@code get} on a worker of that pool helps (it
     * runs the task if it has not started) rather than waiting as a blocking section. A
     * blocking section is all the other futures have, and a work-stealing pool built with
     * {@link WorkStealingPool.Builder#maxSpareWorkers maxSpareWorkers(0)} cannot compensate
     * for it: {@code union.submit(inner).get()} in a task of its one worker never returned,
     * where {@code pool.submit(inner).get()} does, since the inner task was queued behind the
     * waiting worker alone.
     */
    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return members[0] instanceof WorkStealingPool ws ? ws.newTaskFor(callable) : super.newTaskFor(callable);
    }

    /** {@code submit} routes to member 0: a task of this package is pinned if member 0 pins it. */
    @Override
    ForkTask<?> submittedParent() {
        return members[0] instanceof CompensatingExecutorService c ? c.submittedParent() : null;
    }

    /**
     * {@code submit} routes to member 0: an {@link Error} from {@code execute} leaves the task
     * unqueued if member 0's does. Answered {@code false} (a task of this package left bound),
     * a {@link WorkSharingPool}'s {@code OutOfMemoryError} before its queue took the future left
     * the task bound with nothing to run it: its join waited for good, and submitting it again was
     * refused. After the member accepts, {@link #execute(Runnable, Hints)} only counts the task.
     */
    @Override
    boolean executeErrorsLeaveUnqueued() {
        return members[0] instanceof CompensatingExecutorService c && c.executeErrorsLeaveUnqueued();
    }

    /** As {@link #newTaskFor(Callable)}. */
    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return members[0] instanceof WorkStealingPool ws ? ws.newTaskFor(runnable, value)
                : super.newTaskFor(runnable, value);
    }

    /**
     * As {@link java.util.concurrent.AbstractExecutorService#invokeAll(Collection)}, on member 0.
     * Called from a worker of member 0 it is that pool's own {@code invokeAll}, which knows how
     * to wait for tasks queued by one of its own workers: a {@link PinnedPool}, for one, runs them
     * on the calling worker, where queued they would be pinned behind the caller and never run.
     * Otherwise, and once a borrowing union is shut down (which then rejects), see the class
     * overview.
     */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
        ExecutorService own = ownMember0(tasks);
        return own != null ? own.invokeAll(countedOnMember0(tasks)) : super.invokeAll(tasks);
    }

    /** As {@link #invokeAll(Collection)}, with a timeout. */
    @Override
    public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException {
        Objects.requireNonNull(unit, "unit");
        ExecutorService own = ownMember0(tasks);
        return own != null ? own.invokeAll(countedOnMember0(tasks), timeout, unit)
                : super.invokeAll(tasks, timeout, unit);
    }

    /** As {@link java.util.concurrent.AbstractExecutorService#invokeAny(Collection)}; see {@link #invokeAll(Collection)}. */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
        ExecutorService own = ownMember0(tasks);
        return own != null ? own.invokeAny(countedOnMember0(tasks)) : super.invokeAny(tasks);
    }

    /** As {@link #invokeAny(Collection)}, with a timeout. */
    @Override
    public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
            throws InterruptedException, ExecutionException, TimeoutException {
        Objects.requireNonNull(unit, "unit");
        ExecutorService own = ownMember0(tasks);
        return own != null ? own.invokeAny(countedOnMember0(tasks), timeout, unit)
                : super.invokeAny(tasks, timeout, unit);
    }

    /**
     * Member 0 if the caller is one of its workers and the union would pass it the tasks (see
     * {@link #execute(Runnable, Hints)}); else {@code null}.
     */
    private ExecutorService ownMember0(Collection<?> tasks) {
        Objects.requireNonNull(tasks, "tasks");
        if (members[0] instanceof PoolCore p && p.isWorkerOfThisPool()) {
            return p;
        }
        return null;
    }

    /**
     * {@code tasks} for member 0's own {@code invokeAll} or {@code invokeAny}, each counted as
     * routed there when it starts. Not the collection's size, counted when the call returns: on
     * a worker of member 0 those methods may start none of the tasks (a stopped pool's
     * {@link RejectedExecutionException}, a timeout already passed, an interrupt pending) or only
     * some ({@code invokeAny} runs them in order until one succeeds; a timeout cancels the rest),
     * and no count taken back could feed the monotonic counter metric that reads
     * {@link #routedCounts()}. A null element stays null, for the member to refuse.
     */
    private <T> List<Callable<T>> countedOnMember0(Collection<? extends Callable<T>> tasks) {
        List<Callable<T>> counted = new ArrayList<>(tasks.size());
        for (Callable<T> c : tasks) {
            counted.add(c == null ? null : new CountedCallable<>(c, routed[0], routedUncounted));
        }
        return counted;
    }

    /** A task of member 0's own {@code invokeAll} or {@code invokeAny}: counts itself when it starts. */
    private static final class CountedCallable<T> implements Callable<T> {
        private final Callable<T> task;
        private final LongAdder routed;
        /** The union's {@code routedUncounted}: where a failed add to {@link #routed} is counted (member 0). */
        private final AtomicLongArray uncounted;

        CountedCallable(Callable<T> task, LongAdder routed, AtomicLongArray uncounted) {
            this.task = task;
            this.routed = routed;
            this.uncounted = uncounted;
        }

        @Override
        public T call() throws Exception {
            try {
                routed.increment();
            } catch (Throwable e) {
                // as in execute: a contended LongAdder's add allocates a cell (an
                // OutOfMemoryError on a full heap). Thrown from here, the task did not run and
                // its future failed over a statistic; it runs, counted in the union's array
                uncounted.getAndIncrement(0);
            }
            return task.call();
        }

        @Override
        public String toString() {
            return task.toString();            // what a future's toString shows of its task
        }
    }

    /** {@return the number of members} */
    public int size() {
        return members.length;
    }

    /**
     * Member {@code index}.
     *
     * @param index the member's index, from 0 to {@code size() - 1}
     * @return the member scheduler
     * @throws IndexOutOfBoundsException if there is no such member
     */
    public Scheduler member(int index) {
        Objects.checkIndex(index, members.length);
        return members[index];
    }

    /** {@return whether shutting the union down shuts its members down too} */
    public boolean ownsMembers() {
        return owning;
    }

    /**
     * {@return the tasks routed to each member so far, index by index (an immutable copy)} A task
     * the member refused (its {@link RejectedExecutionException}) is not counted; the tasks of an
     * {@code invokeAll} or {@code invokeAny} that member 0 runs as its own (called from one of its
     * workers) are counted as each starts, so those it never starts (a timeout that passed, the
     * tasks after {@code invokeAny}'s first success) are not.
     */
    public List<Long> routedCounts() {
        List<Long> counts = new ArrayList<>(routed.length);
        for (int i = 0; i < routed.length; i++) {
            counts.add(routed[i].sum() + routedUncounted.get(i));
        }
        return List.copyOf(counts);
    }

    /**
     * Rejects new tasks; an owning union also shuts its members down, every one of them even if
     * an earlier one throws. A member's {@link RuntimeException} or {@link Error} is then
     * rethrown once all were asked, the first one, with the later ones
     * {@linkplain Throwable#addSuppressed suppressed} in it.
     */
    @Override
    public void shutdown() {
        shutdown = true;
        rethrow(shutdownMembers());
    }

    /**
     * Shuts every member down if the union owns them; returns the first failure, with the later
     * ones suppressed in it, or {@code null}.
     */
    private Throwable shutdownMembers() {
        if (!owning) {
            return null;
        }
        return forEveryMember("shutting down", null, (i, m) -> {
            if (m instanceof ExecutorService es) {
                es.shutdown();
            }
        });
    }

    /**
     * Rejects new tasks; an owning union also calls {@code shutdownNow()} on its members and
     * returns their unstarted tasks. A borrowing union returns an empty list.
     *
     * <p>Every member is stopped even if an earlier one throws. A member's
     * {@link RuntimeException} or {@link Error} is then rethrown once all were asked, the first
     * one, unchanged, so that a caller catches it by its type, with the later ones
     * {@linkplain Throwable#addSuppressed suppressed} in it. The tasks drained from the members
     * that did stop cannot be returned then; they are not dropped either, but attached to the
     * rethrown failure, suppressed in it, as an {@link UnstartedTasks}. A failure built with
     * suppression disabled cannot hold them: then an {@link UnstartedTasks} is thrown in its
     * place, with the failure as its cause. A member whose {@code shutdownNow()} returns
     * {@code null} fails so, with a {@link NullPointerException} that names it.
     *
     * <pre>{@code
     * try {
     *     cancelAll(union.shutdownNow());
     * } catch (SchedulerUnion.UnstartedTasks u) {
     *     cancelAll(u.tasks());
     *     throw u;
     * } catch (RuntimeException | Error e) {
     *     for (Throwable s : e.getSuppressed()) {
     *         if (s instanceof SchedulerUnion.UnstartedTasks u) {
     *             cancelAll(u.tasks());
     *         }
     *     }
     *     throw e;
     * }
     * }</pre>
     */
    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> notStarted = new ArrayList<>();
        if (owning) {
            Throwable failure = forEveryMember("stopping", null, (i, m) -> {
                if (m instanceof ExecutorService es) {
                    List<Runnable> drained = es.shutdownNow();
                    if (drained == null) {
                        // against ExecutorService's contract; the list's own exception for it
                        // ("because "c" is null") named neither the member nor what it did
                        throw new NullPointerException("stopping member " + i + " (" + describe(m)
                                + "): its shutdownNow() returned null");
                    }
                    notStarted.addAll(drained);
                }
            });
            if (failure != null && !notStarted.isEmpty()) {
                failure.addSuppressed(new UnstartedTasks(notStarted, null));
                if (failure.getSuppressed().length == 0) {
                    // built with suppression disabled: addSuppressed did nothing, and rethrowing
                    // the failure as it is would lose the tasks
                    failure = new UnstartedTasks(notStarted, failure);
                }
            }
            rethrow(failure);
        }
        return notStarted;
    }

    /** What the union does to one member when it stops it. */
    @FunctionalInterface
    private interface MemberStep {
        void apply(int index, Scheduler member) throws Exception;
    }

    /**
     * Applies {@code step} to every member, in order, whatever an earlier one throws: one member
     * that fails to stop must not leave the others running. Returns the first failure,
     * {@code first} if not null (an earlier step's), with the later ones suppressed in it, or
     * {@code null} if there was none. A checked exception is wrapped in an
     * {@link IllegalStateException} that names the member and {@code what} the union was doing;
     * an {@link InterruptedException} also restores the calling thread's interrupt.
     */
    private Throwable forEveryMember(String what, Throwable first, MemberStep step) {
        for (int i = 0; i < members.length; i++) {
            Scheduler m = members[i];
            try {
                step.apply(i, m);
            } catch (Throwable e) {
                if (e instanceof InterruptedException) {
                    // the member's close was interrupted and cleared the interrupt as it threw:
                    // wrapped below, it was lost, and the caller came out of close() no longer
                    // interrupted. Restored now, as Closing.close restores it, so the later
                    // members' closes see it too, as they see one that interrupted their wait
                    Thread.currentThread().interrupt();
                }
                Throwable t = e instanceof RuntimeException || e instanceof Error ? e
                        : new IllegalStateException(what + " member " + i + " (" + describe(m) + ")", e);
                if (first == null) {
                    first = t;
                } else if (t != first && !suppresses(first, t)) {
                    first.addSuppressed(t);   // a member may throw one instance again: once is enough
                }
            }
        }
        return first;
    }

    /**
     * A member as a failure's message shows it: its own {@code toString}, or its class if that
     * throws. A user's method called on a failure path: its exception escaped
     * {@link #forEveryMember}, which left the later members running and lost the failure.
     */
    private static String describe(Scheduler member) {
        try {
            return String.valueOf(member);
        } catch (RuntimeException | Error e) {
            return member.getClass().getName();
        }
    }

    /**
     * Whether {@code t} itself is suppressed in {@code first}: compared by identity, not with the
     * failures' own {@code equals}, which could throw (out of {@link #forEveryMember}, leaving the
     * later members running) or call a distinct failure equal to an earlier one (dropping it).
     */
    private static boolean suppresses(Throwable first, Throwable t) {
        for (Throwable s : first.getSuppressed()) {
            if (s == t) {
                return true;
            }
        }
        return false;
    }

    /** Throws {@code failure}, a RuntimeException or an Error as {@link #forEveryMember} returns it; nothing if null. */
    private static void rethrow(Throwable failure) {
        if (failure instanceof Error e) {
            throw e;
        }
        if (failure != null) {
            throw (RuntimeException) failure;
        }
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    /** Shut down, and every member that is an {@link ExecutorService} terminated. */
    @Override
    public boolean isTerminated() {
        if (!shutdown) {
            return false;
        }
        for (Scheduler m : members) {
            if (m instanceof ExecutorService es && !es.isTerminated()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        // a negative timeout counts as 0, as in the JDK: now + Long.MIN_VALUE lies 2^63 ns away,
        // and the difference tested below overflowed into ~292 years of polling
        long deadline = System.nanoTime() + Math.max(0L, Objects.requireNonNull(unit, "unit").toNanos(timeout));
        if (!shutdown) {
            // nothing to wait for but the shutdown call itself; poll coarsely until the deadline
            while (!shutdown) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.MILLISECONDS.toNanos(10)));
            }
        }
        for (Scheduler m : members) {
            if (m instanceof ExecutorService es
                    && !es.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Shuts the union down. An owning union then closes every member ({@link ExecutorService}
     * members are shut down and awaited, other {@link AutoCloseable} members closed); a
     * borrowing union returns at once and leaves its members alone.
     *
     * <p>Every member is shut down, then closed, even if an earlier one throws. The first
     * failure is then rethrown (a {@link RuntimeException} or {@link Error} unchanged, a checked
     * exception of a member's {@code close()} wrapped in an {@link IllegalStateException}), with
     * the later ones {@linkplain Throwable#addSuppressed suppressed} in it. A member's
     * {@link InterruptedException} is wrapped so too, and the calling thread's interrupt is
     * restored, as {@code ExecutorService.close()} keeps it.
     */
    @Override
    public void close() {
        shutdown = true;
        if (!owning) {
            return;
        }
        Throwable failure = shutdownMembers();   // all members stop accepting before any is awaited
        rethrow(forEveryMember("closing", failure, (i, m) -> {
            if (m instanceof AutoCloseable c && !(m instanceof ExecutorService es && closesAsTheJdkDoes(es))) {
                c.close();
            } else if (m instanceof ExecutorService es) {
                Closing.close(es, false, Closing::cancelIfFuture);
            }
        }));
    }

    /**
     * Whether {@code es} closes with the {@code close()} that {@link ExecutorService} has from
     * Java 19, which the union does not call: an interrupted one drops the tasks its
     * {@code shutdownNow()} returns, and a future of the union's {@code submit} among them never
     * completed, where {@link Closing#close} cancels it (as on Java 17, where such a member is
     * not {@link AutoCloseable}). A {@code close()} of the member's own class is called.
     */
    private static boolean closesAsTheJdkDoes(ExecutorService es) {
        try {
            return es.getClass().getMethod("close").getDeclaringClass() == ExecutorService.class;
        } catch (NoSuchMethodException | SecurityException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return "SchedulerUnion[" + members.length + " members, " + (owning ? "owning" : "borrowing")
                + (shutdown ? ", shut down" : "") + "]";
    }
}
