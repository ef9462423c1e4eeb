/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.BooleanGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link ForkTask} as a {@link java.util.concurrent.Future}: its state
 * machine ({@code NEW -> RUNNING -> COMPLETING -> final}, cancellation with and without
 * interrupt through {@code INTERRUPTING}, {@code shutdownNow}'s {@code HANDED_BACK} and the
 * {@code reclaim} of {@link ForkTask#run()}) against {@link Spec}, the sequential behaviour
 * {@link java.util.concurrent.FutureTask} users expect with {@code run()} taken as one step.
 *
 * <p>{@code run()} returns nothing: a {@code cancel} that lands while the body runs wins and the
 * body's outcome is dropped, which is the sequential history "cancel, then run (does nothing)"
 * plus a side effect nobody observes. Exactly-once is checked through the outcome instead: the
 * body returns (or puts in its exception's message) how many times it has run, so a second run
 * whose outcome got published reads as {@code 2}. {@code outcome()} is {@code get} with a zero
 * timeout, {@code viewOutcome()} a fresh {@link ForkTask#toCompletableFuture()} read at once,
 * both mapped to the same tag. {@link #viewsAgree} checks, after each part of a scenario, that
 * every view made while the task was pending was completed with the task's outcome (a view whose
 * node the completion missed would stay pending for ever).
 *
 * <p>{@code tryHandBack} is {@code shutdownNow}'s drain, one thread (the {@code "drain"}
 * non-parallel group), as one pool drains a task. {@code run()} ({@link ForkTask#run()}, which
 * reclaims a handed-back task) and {@code runInline()} (a joiner's {@code tryRun}, which runs
 * {@code NEW} tasks only) are the runners, in one thread (the {@code "runner"} group): a second
 * runner's {@code run()} returns at once while the first runs the body, as
 * {@link java.util.concurrent.FutureTask#run()} does, which a spec with {@code run()} as one
 * step cannot express. For the same reason the drain is a runner's rival, not a step after
 * it: a {@code run()} that read {@code NEW} and lost its start CAS to the drain returns
 * without running the task, which is then in {@code shutdownNow}'s list (Lincheck finds this at
 * once with the run taken bare: {@code run(): void} beside {@code tryHandBack(): true}, then
 * {@code outcome(): pending}). That is the designed claim (the first of queue, joiner and
 * drain to claim the task owns it, see the class overview of {@link ForkTask}), so the test's
 * {@code run()} plays the list's holder too: it runs the task again if it finds it handed back.
 *
 * <p>Two tasks: one made from a {@link java.util.concurrent.Callable} that returns a value
 * ({@link CallableTask}), and a {@link ComputeTask} bound as {@code spawn} binds it whose
 * {@code compute()} throws ({@link FailingComputeTask}).
 *
 * <p>Shown to fail (by temporarily editing {@link ForkTask}) when the start claim in
 * {@code tryRun} is a read and a plain write instead of a CAS (a cancelled task's view completes
 * with the run's value), when {@code cancel} moves the state with a plain write instead of a
 * CAS (the same, "a view says value:1 of a task whose get() says cancelled"), and when
 * {@code complete} reads the waiter stack before its CAS to {@code COMPLETING} (a view pushed
 * in between is never completed: "a view says pending").
 */
public class ForkTaskLincheckTest {

    /** The tag of what {@code get(0, NANOSECONDS)} does. */
    static String tagOfGet(ForkTask<?> task) {
        try {
            return "value:" + task.get(0L, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            return "pending";
        } catch (CancellationException e) {
            return "cancelled";
        } catch (ExecutionException e) {
            return "failed:" + e.getCause().getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    /** The tag of a view's state now, as {@link #tagOfGet} tags the task. */
    static String tagOfView(CompletableFuture<?> view) {
        if (!view.isDone()) {
            return "pending";
        }
        try {
            return "value:" + view.join();
        } catch (CancellationException e) {
            return "cancelled";
        } catch (CompletionException e) {
            return "failed:" + e.getCause().getMessage();
        }
    }

    /** Operations shared by both tasks; {@code task} is set by the subclass's constructor. */
    abstract static class Ops {
        final AtomicInteger runs = new AtomicInteger();
        final ConcurrentLinkedQueue<CompletableFuture<?>> views = new ConcurrentLinkedQueue<>();
        ForkTask<?> task;
        /** Whether the drain has met the task; the drain thread's own. */
        boolean drained;

        void doRun() {
            task.run();
            while (task.isHandedBack()) {
                // The drain claimed the task between run()'s reclaim and its start CAS, as a
                // queue's runner or a joiner may claim it first: run() then returns, as
                // FutureTask's does for a task another thread runs, and the task is in
                // shutdownNow's list. The holder of that list runs it; run() again is that.
                task.run();
            }
            Thread.interrupted();              // a cancel(true) of this run interrupted this thread
        }

        /**
         * The drain: the task sits in one queue, so one drain meets it once; later calls find
         * nothing. (Met twice, with a holder's run() between, it would be handed back twice, a
         * task queued twice and run by the list's holder before shutdownNow returned.)
         */
        boolean doTryHandBack() {
            if (drained) {
                return false;
            }
            drained = true;
            return task.tryHandBack();
        }

        void doRunInline() {
            task.tryRun();                     // a joiner's inline run: NEW tasks only, no reclaim
            Thread.interrupted();
        }

        String doViewOutcome() {
            CompletableFuture<?> v = task.toCompletableFuture();
            views.add(v);
            return tagOfView(v);
        }

        void checkViews() {
            if (!task.isDone()) {
                return;
            }
            String expected = tagOfGet(task);
            for (CompletableFuture<?> v : views) {
                String seen = tagOfView(v);
                if (!seen.equals(expected)) {
                    throw new AssertionError("a view says " + seen + " of a task whose get() says " + expected);
                }
            }
        }
    }

    /** A task made from a callable that returns the number of its runs. */
    @Param(name = "interrupt", gen = BooleanGen.class)
    public static class CallableTask extends Ops {

        public CallableTask() {
            task = new ForkTask<Integer>(runs::incrementAndGet, null);
        }

        @Operation(nonParallelGroup = "runner")
        public void run() {
            doRun();
        }

        @Operation(nonParallelGroup = "runner")
        public void runInline() {
            doRunInline();
        }

        @Operation
        public boolean cancel(@Param(name = "interrupt") boolean interrupt) {
            return task.cancel(interrupt);
        }

        @Operation
        public boolean isDone() {
            return task.isDone();
        }

        @Operation
        public boolean isCancelled() {
            return task.isCancelled();
        }

        @Operation
        public String outcome() {
            return tagOfGet(task);
        }

        @Operation
        public String viewOutcome() {
            return doViewOutcome();
        }

        @Operation(nonParallelGroup = "drain")
        public boolean tryHandBack() {
            return doTryHandBack();
        }

        @Validate
        public void viewsAgree() {
            checkViews();
        }
    }

    /** A {@link ComputeTask}, bound as {@code spawn} binds it, whose compute() throws. */
    @Param(name = "interrupt", gen = BooleanGen.class)
    public static class FailingComputeTask extends Ops {

        public FailingComputeTask() {
            ComputeTask<Integer> t = new ComputeTask<>() {
                @Override
                protected Integer compute() {
                    throw new IllegalStateException("run " + runs.incrementAndGet());
                }
            };
            t.bind(null);
            task = t;
        }

        @Operation(nonParallelGroup = "runner")
        public void run() {
            doRun();
        }

        @Operation(nonParallelGroup = "runner")
        public void runInline() {
            doRunInline();
        }

        @Operation
        public boolean cancel(@Param(name = "interrupt") boolean interrupt) {
            return task.cancel(interrupt);
        }

        @Operation
        public boolean isDone() {
            return task.isDone();
        }

        @Operation
        public boolean isCancelled() {
            return task.isCancelled();
        }

        @Operation
        public String outcome() {
            return tagOfGet(task);
        }

        @Operation
        public String viewOutcome() {
            return doViewOutcome();
        }

        @Operation(nonParallelGroup = "drain")
        public boolean tryHandBack() {
            return doTryHandBack();
        }

        @Validate
        public void viewsAgree() {
            checkViews();
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void callableTask() {
        options(Spec.class).check(CallableTask.class);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void failingComputeTask() {
        options(FailingSpec.class).check(FailingComputeTask.class);
    }

    static ModelCheckingOptions options(Class<?> spec) {
        return new ModelCheckingOptions()
                .iterations(20)
                .invocationsPerIteration(500)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(2)
                .sequentialSpecification(spec);
    }

    /**
     * What a {@link java.util.concurrent.FutureTask} user expects, with {@code run()} one step
     * and {@code HANDED_BACK} a not-started state that {@code run()} leaves.
     */
    public static class Spec {
        private boolean drained;
        private boolean handedBack;
        private String outcome = "pending";

        String body() {
            return "value:1";
        }

        public void run() {
            handedBack = false;                // reclaim
            if (outcome.equals("pending")) {
                outcome = body();
            }
        }

        public void runInline() {
            if (!handedBack && outcome.equals("pending")) {
                outcome = body();
            }
        }

        public boolean cancel(boolean interrupt) {
            if (!outcome.equals("pending")) {
                return false;
            }
            handedBack = false;
            outcome = "cancelled";
            return true;
        }

        public boolean isDone() {
            return !outcome.equals("pending");
        }

        public boolean isCancelled() {
            return outcome.equals("cancelled");
        }

        public String outcome() {
            return outcome;
        }

        public String viewOutcome() {
            return outcome;
        }

        public boolean tryHandBack() {
            if (drained) {
                return false;
            }
            drained = true;
            if (handedBack || !outcome.equals("pending")) {
                return false;
            }
            handedBack = true;
            return true;
        }

        public void viewsAgree() {
        }
    }

    /** {@link Spec} for {@link FailingComputeTask}. */
    public static class FailingSpec extends Spec {
        @Override
        String body() {
            return "failed:run 1";
        }
    }
}
