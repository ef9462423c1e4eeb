/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bare {@link AsyncSemaphore#acquire()} that completed inside an {@code all} holds a permit,
 * which its value ({@code null}) does not show. An {@code all} that then failed or was
 * cancelled dropped its collected values, and with the acquire's the permit: nobody received it
 * and nobody released it, and the semaphore had one permit fewer for good. So had the list the
 * runtime drops (the all's task cancelled during the poll that returned it), and a selection or
 * an {@code any}'s value won by a bare acquire that the runtime drops. Such a permit is now
 * given back; a delivered one stays the caller's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnreceivedAcquireGivesBackItsPermitTest {

    private static final AsyncTask<Object> FAILS = cx -> {
        throw new IllegalStateException("test: the last child fails");
    };

    @AfterEach
    void clearSeam() {
        Async.beforeResultContainer = null;
    }

    @Test
    void aSelectionThatCannotBeMadeGivesBackItsAcquiresPermit() {
        // the poll that won throws what a full heap throws making the selection: nobody
        // receives the winner, a permit
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<Async.Selected<Void>> select = Async.select(List.of(sem.acquire()));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: no room for the selection");
        };
        assertThatThrownBy(() -> select.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(OutOfMemoryError.class);
        assertThat(sem.availablePermits()).isEqualTo(1);
    }

    @Test
    void aListThatCannotBeMadeGivesBackItsAcquiresPermit() {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<List<Void>> all = Async.all(List.of(sem.acquire()));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: no room for the list");
        };
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(OutOfMemoryError.class);
        assertThat(sem.availablePermits()).isEqualTo(1);
    }

    @Test
    void aFailedAllGivesBackTheAcquireItCompleted() {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(sem.acquire(), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(sem.availablePermits()).as("the permit the failed all's acquire took").isEqualTo(1);
        Async.cancel(all);                     // dropped again: given back once only
        assertThat(sem.availablePermits()).isEqualTo(1);
    }

    @Test
    void aCancelledAllGivesBackTheAcquireItCompleted() {
        AsyncSemaphore sem = new AsyncSemaphore(2);
        AsyncPromise<Void> never = new AsyncPromise<>();
        AsyncTask<List<Void>> all = Async.all(List.of(sem.acquire(), never, sem.acquire()));
        assertThat(all.poll(new AsyncCombinatorTest.HandContext()).isPending()).isTrue();
        assertThat(sem.availablePermits()).isZero();
        Async.cancel(all);
        assertThat(sem.availablePermits()).as("the permits of the cancelled all's acquires").isEqualTo(2);
    }

    @Test
    void aDeliveredAllsAcquireKeepsItsPermit() {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<List<Void>> all = Async.all(List.of(sem.acquire()));
        assertThat(all.poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        Async.cancel(all);                     // too late: the caller holds the permit
        assertThat(sem.availablePermits()).isZero();
        sem.release();
        assertThat(sem.availablePermits()).isEqualTo(1);
    }

    @Test
    void aListTheRuntimeDropsGivesBackItsAcquiresPermit() throws Exception {
        // the acquire completes first; the next child cancels the all's own handle, so the
        // runtime drops the list that same poll returns
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AtomicReference<JoinHandle<?>> self = new AtomicReference<>();
        AsyncPromise<Void> go = new AsyncPromise<>();
        AsyncTask<Void> cancelSelf = cx -> {
            self.get().cancel(false);
            return Poll.ready(null);
        };
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<List<Void>> h = rt.spawn(Async.then(go, x -> Async.all(List.of(sem.acquire(), cancelSelf))));
            self.set(h);
            go.complete(null);
            try {
                h.get(20, TimeUnit.SECONDS);
            } catch (CancellationException expected) {
                // the handle reports the cancel
            }
            rt.spawn(Async.ready(0)).get(20, TimeUnit.SECONDS);   // the worker is past the finish
            assertThat(h.isCancelled()).isTrue();
            assertThat(sem.availablePermits()).as("the permit in the list nobody received").isEqualTo(1);
        }
    }

    @Test
    void aDeliveredListKeepsNotTheTaskThatAwaitedItsAcquires() throws Exception {
        // the list keeps the acquires, for the runtime's drop; an acquire that waited kept the
        // waker it waited with, the all's child, and through it the all and its task
        AsyncSemaphore sem = new AsyncSemaphore(0);
        CountDownLatch queued = new CountDownLatch(1);
        AsyncTask<Void> afterTheAcquire = cx -> {
            queued.countDown();                // the all's first poll polled the acquire before
            return Poll.ready(null);
        };
        List<Void> list;
        WeakReference<JoinHandle<List<Void>>> handle;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<List<Void>> h = rt.spawn(Async.all(List.of(sem.acquire(), afterTheAcquire)));
            handle = new WeakReference<>(h);
            assertThat(queued.await(20, TimeUnit.SECONDS)).isTrue();
            sem.release();                     // granted to the waiting acquire
            list = h.get(20, TimeUnit.SECONDS);
            h = null;
            assertThat(Gc.collected(handle)).as("the all's task, once its handle is dropped").isTrue();
            assertThat(list).hasSize(2);
            assertThat(sem.availablePermits()).as("the permit is the list's receiver's").isZero();
        }
    }

    /**
     * Spawns {@code body(loser)} and returns its handle once the task is done: {@code loser} is
     * a task that never completes and, cancelled (as a select cancels its losers, after its
     * winner's poll and before the select returns), cancels the spawned task's own handle, so
     * that the runtime drops what that poll returns.
     */
    static <T> JoinHandle<T> spawnCancelledByItsLoser(AsyncRuntime rt,
            java.util.function.Function<AsyncTask<Void>, AsyncTask<T>> body) throws Exception {
        return DroppedValueHeldByAHandleTest.spawnCancelledBy(rt, CancelsItsTaskWhenCancelled::new, body);
    }

    private static final class CancelsItsTaskWhenCancelled implements AsyncTask<Void>, Cancellable {
        private final AtomicReference<JoinHandle<?>> self;

        CancelsItsTaskWhenCancelled(AtomicReference<JoinHandle<?>> self) {
            this.self = self;
        }

        @Override
        public Poll<Void> poll(Context cx) {
            return Poll.pending();
        }

        @Override
        public void cancel() {
            self.get().cancel(false);
        }
    }

    @Test
    void aSelectionTheRuntimeDropsGivesBackItsAcquiresPermit() throws Exception {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Async.Selected<Void>> h = spawnCancelledByItsLoser(rt,
                    loser -> Async.select(List.of(sem.acquire(), loser)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(sem.availablePermits()).as("the permit in the selection nobody received").isEqualTo(1);
        }
    }

    @Test
    void anAnyWhoseValueTheRuntimeDropsGivesBackItsAcquiresPermit() throws Exception {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Void> h = spawnCancelledByItsLoser(rt, loser -> Async.any(List.of(sem.acquire(), loser)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(sem.availablePermits()).as("the permit of the any nobody received").isEqualTo(1);
        }
    }

    @Test
    void aDeliveredSelectionsAcquireKeepsItsPermit() throws Exception {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            Async.Selected<Void> s = rt.spawn(Async.select(List.of(sem.acquire(), new AsyncPromise<Void>())))
                    .get(20, TimeUnit.SECONDS);
            assertThat(s.index()).isZero();
            assertThat(sem.availablePermits()).isZero();
        }
    }

    @Test
    void aFailedAllGivesBackTheAcquireAChildPassedOn() {
        // a then ending in the acquire and a timeout over one: their value is the acquire's
        AsyncSemaphore sem = new AsyncSemaphore(2);
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(
                Async.then(Async.ready(0), x -> sem.acquire()),
                Async.timeout(sem.acquire(), java.time.Duration.ofMinutes(1)),
                FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(sem.availablePermits()).as("the permits the failed all's children took").isEqualTo(2);
    }

    @Test
    void aSelectionWonByAThenEndingInAnAcquireGivesItsPermitBackWhenDropped() throws Exception {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Async.Selected<Void>> h = spawnCancelledByItsLoser(rt,
                    loser -> Async.select(List.of(Async.then(Async.ready(0), x -> sem.acquire()), loser)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(sem.availablePermits()).as("the permit in the selection nobody received").isEqualTo(1);
        }
    }

    @Test
    void aFailedAllGivesBackTheAcquireARecoverPassedThrough() {
        // the recover's handler never ran: its value is the acquire's, a permit null does not show
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(Async.recover(sem.acquire(), e -> null), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(sem.availablePermits()).as("the permit under the recover").isEqualTo(1);
    }

    @Test
    void aFailedAllGivesBackTheAcquireAtTheEndOfALongChainOfRecovers() {
        // more than FLATTEN_DEPTH stages: run as a pipeline, which the acquire's value passed through
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<Void> chain = sem.acquire();
        for (int i = 0; i < 2 * Async.FLATTEN_DEPTH; i++) {
            chain = Async.recover(chain, e -> null);
        }
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(chain, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(sem.availablePermits()).as("the permit at the end of the pipeline").isEqualTo(1);
    }

    @Test
    void anAcquireAThensFunctionReceivedIsThatFunctionsToRelease() {
        // then(acquire, fn): fn was told it holds the permit (it may have released it already),
        // so the runtime cannot give it back when the all drops the then's own value
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(
                Async.then(sem.acquire(), x -> {
                    sem.release();
                    return Async.ready("released by the function");
                }),
                FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(sem.availablePermits()).as("released once, by the function").isEqualTo(1);
    }

    @Test
    void anAcquireAMapInALongChainWasGivenStaysThatMapsFunctions() {
        // a pipeline whose map saw the acquire's completion: its function owns the permit now
        // (a value passed on by a map counts as the task's for a handle, not for a permit)
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<Void> chain = Async.map(sem.acquire(), x -> null);
        for (int i = 0; i < 2 * Async.FLATTEN_DEPTH; i++) {
            chain = Async.recover(chain, e -> null);
        }
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(chain, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(sem.availablePermits()).as("the map's function holds it").isZero();
    }

    @Test
    void aLongChainOfRecoversWhosePollCannotBeAllocatedGivesBackItsAcquiresPermit() {
        // the outermost recover polls the pipeline the rest of the chain runs as, which wraps
        // the acquire's value in a Poll; should that fail, nobody receives the permit (the
        // recover's handler gets the error instead)
        AsyncSemaphore sem = new AsyncSemaphore(1);
        AsyncTask<Void> chain = sem.acquire();
        for (int i = 0; i < 2 * Async.FLATTEN_DEPTH; i++) {
            chain = Async.recover(chain, e -> null);
        }
        AsyncTask<Void> outer = chain;
        DirectTask.beforeWrap = t -> {
            if (t != outer) {                  // the pipeline inside the outermost recover
                throw new OutOfMemoryError("test: the Poll cannot be allocated");
            }
        };
        try {
            assertThat(outer.poll(new AsyncCombinatorTest.HandContext()).isReady()).as("recovered").isTrue();
        } finally {
            DirectTask.beforeWrap = null;
        }
        assertThat(sem.availablePermits()).as("the permit nobody received").isEqualTo(1);
    }
}
