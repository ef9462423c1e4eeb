/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The order of woken tasks on one worker. A driver task, while it holds the only worker, wakes
 * idle tasks different numbers of times; when it returns, all of them are waiting in the
 * worker's wake channel in first-wake order. HYBRID must run the most-woken first, first-woken
 * first among equals; WORK_STEALING runs them in first-wake order.
 */
class HybridOrderTest {

    private static final String[] NAMES = {"a", "b", "c", "d", "e", "f"};
    /** Wakes per task, in the order the driver first wakes them. */
    private static final int[] WAKES = {1, 3, 2, 3, 1, 5};

    private static List<String> order(AsyncPolicy policy) throws Exception {
        return order(policy, NAMES, WAKES, 0);
    }

    /**
     * Spawns one task per name on one worker; each records its waker on its first poll, and on
     * later polls its name. A driver task then wakes them in rounds, task i in the first
     * {@code wakes[i]} rounds. The first task yields on its first {@code firstYields} polls
     * after that. Returns the names in the order they ran.
     */
    private static List<String> order(AsyncPolicy policy, String[] names, int[] wakes, int firstYields)
            throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).build()) {
            List<String> ran = new CopyOnWriteArrayList<>();
            Waker[] wakers = new Waker[names.length];
            CountDownLatch firstPolls = new CountDownLatch(names.length);
            List<JoinHandle<Void>> hs = new ArrayList<>();
            for (int i = 0; i < names.length; i++) {
                int id = i;
                hs.add(rt.spawn(new AsyncTask<Void>() {
                    int polls;

                    @Override
                    public Poll<Void> poll(Context cx) {
                        if (polls++ == 0) {
                            wakers[id] = cx.waker();
                            firstPolls.countDown();
                            return Poll.pending();
                        }
                        ran.add(names[id]);
                        if (id == 0 && polls <= firstYields + 1) {
                            cx.waker().wake(); // yield
                            return Poll.pending();
                        }
                        return Poll.ready(null);
                    }
                }));
            }
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            // One worker: the driver's poll starts only after the last first poll returned.
            rt.run(cx -> {
                for (int round = 0; round < 5; round++) {
                    for (int i = 0; i < names.length; i++) {
                        if (round < wakes[i]) {
                            wakers[i].wake();
                        }
                    }
                }
                return Poll.ready(null);
            });
            for (JoinHandle<Void> h : hs) {
                h.get(WAIT_S, TimeUnit.SECONDS);
            }
            for (int i = 0; i < names.length; i++) {
                assertThat(hs.get(i).wakeCount()).isEqualTo(wakes[i] + (i == 0 ? firstYields : 0));
            }
            return ran;
        }
    }

    @Test
    void hybridRunsTheMostWokenFirstAndFifoAmongEquals() throws Exception {
        assertThat(order(AsyncPolicy.HYBRID)).containsExactly("f", "b", "d", "c", "a", "e");
    }

    /**
     * The driver is a task on the worker, so the last task it moved out of waiting ({@code f},
     * first woken in the first round after {@code e}) is in the worker's LIFO slot and runs first;
     * the others follow in wake order. (HYBRID has no slot.)
     */
    @Test
    void workStealingRunsWokenTasksInWakeOrderAfterTheLifoSlot() throws Exception {
        assertThat(order(AsyncPolicy.WORK_STEALING)).containsExactly("f", "a", "b", "c", "d", "e");
    }

    /**
     * One worker. A and B keep waking each other twice per poll, so their wake counts keep
     * growing; C was woken once. C must run while the ping-pong is still going on (the hot queue
     * runs in batches), not after it ends.
     */
    @Test
    void tasksWakingEachOtherDoNotStarveALessWokenTask() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(AsyncPolicy.HYBRID).build()) {
            AtomicInteger round = new AtomicInteger();
            AtomicInteger cRanAt = new AtomicInteger(-1);
            PingPong pp = new PingPong(rt, round, 5_000, 2, cx -> {
                cRanAt.set(round.get());
                return Poll.ready(null);
            });
            rt.run(cx -> {
                pp.wakers[2].wake();           // C: once
                pp.wakers[0].wake();           // A: twice, so it goes first
                pp.wakers[0].wake();
                return Poll.ready(null);
            });
            pp.join();
            assertThat(cRanAt.get()).isBetween(0, 2);
        }
    }

    /**
     * Tasks A and B, which wake each other {@code wakesPerPoll} times per poll until
     * {@code round} reaches {@code rounds}, and a third task whose polls after the first are
     * {@code third}. Each task's first poll only records its waker; the constructor returns once
     * all three have had it.
     */
    private static final class PingPong {
        final Waker[] wakers = new Waker[3];
        final List<JoinHandle<Void>> handles = new ArrayList<>();

        PingPong(AsyncRuntime rt, AtomicInteger round, int rounds, int wakesPerPoll,
                java.util.function.Function<Context, Poll<Void>> third) throws InterruptedException {
            CountDownLatch firstPolls = new CountDownLatch(3);
            for (int i = 0; i < 3; i++) {
                int id = i;
                handles.add(rt.spawn(new AsyncTask<Void>() {
                    boolean polled;

                    @Override
                    public Poll<Void> poll(Context cx) {
                        if (!polled) {
                            polled = true;
                            wakers[id] = cx.waker();
                            firstPolls.countDown();
                            return Poll.pending();
                        }
                        if (id == 2) {
                            return third.apply(cx);
                        }
                        boolean last = round.incrementAndGet() >= rounds;
                        for (int k = 0; k < (last ? 1 : wakesPerPoll); k++) {
                            wakers[1 - id].wake(); // on the last round, to let the partner finish
                        }
                        return last ? Poll.ready(null) : Poll.pending();
                    }
                }));
            }
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
        }

        void join() throws Exception {
            for (JoinHandle<Void> h : handles) {
                h.get(WAIT_S, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void hotQueueOrdersByWakeCountThenArrival() {
        HotQueue q = new HotQueue(500);
        List<TaskCell<?>> cells = new ArrayList<>();
        java.util.Random rnd = new java.util.Random(42);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            for (int i = 0; i < 500; i++) {
                TaskCell<Object> c = new TaskCell<>(rt, cx -> Poll.ready(null));
                int wakes = rnd.nextInt(6);
                for (int w = 0; w < wakes; w++) {
                    c.schedule(true);
                }
                cells.add(c);
                q.add(c);
            }
        }
        List<TaskCell<?>> expected = new ArrayList<>(cells);
        expected.sort((x, y) -> Long.compare(y.wakeCount(), x.wakeCount())); // stable: FIFO ties
        List<TaskCell<?>> got = new ArrayList<>();
        for (TaskCell<?> c; (c = q.poll()) != null; ) {
            got.add(c);
        }
        assertThat(got).containsExactlyElementsOf(expected);
        assertThat(q.isEmpty()).isTrue();
    }
    /**
     * A task's own yields do not raise it in the order: Y yielded five times and was then woken
     * once while waiting, W was woken once while waiting and entered first, so W goes first.
     */
    @Test
    void yieldsDoNotCountTowardsTheHotOrder() {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            TaskCell<Object> y = new TaskCell<>(rt, cx -> Poll.ready(null));
            TaskCell<Object> w = new TaskCell<>(rt, cx -> Poll.ready(null));
            for (int i = 0; i < 5; i++) {      // five polls that woke themselves
                long before = y.word();        // the poll begins: the worker took the cell
                y.schedule(true);
                assertThat(y.finishPending(new LiveTasks(), before)).isTrue();
            }
            for (TaskCell<Object> c : List.of(y, w)) { // one poll that waits, then one wake
                assertThat(c.state()).isEqualTo(TaskCell.SCHEDULED);
                assertThat(c.finishPending(new LiveTasks(), c.word())).isFalse();
                assertThat(c.schedule(true)).isTrue();
            }
            assertThat(y.wakeCount()).isEqualTo(6);
            assertThat(y.waitWakes()).isEqualTo(1);
            HotQueue q = new HotQueue(500);
            q.add(w);
            q.add(y);
            assertThat(q.poll()).isSameAs(w);
            assertThat(q.poll()).isSameAs(y);
        }
    }

    /**
     * One worker. A and B keep waking each other, so the hot queue never stays empty; Y yields
     * three times. Each yield must run before the next batch of wake-ups, as it would in one FIFO
     * queue, not wait for the injector's periodic turn ({@value AsyncWorker#GLOBAL_INTERVAL}
     * picks): a task holding a contended resource across a yield would hold it that long.
     */
    @Test
    void aYieldRunsBeforeTheNextBatchOfWakeups() throws Exception {
        int yields = 3;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(AsyncPolicy.HYBRID).build()) {
            AtomicInteger round = new AtomicInteger();
            AtomicInteger yDoneAt = new AtomicInteger(-1);
            AtomicInteger yRan = new AtomicInteger();
            PingPong pp = new PingPong(rt, round, 2_000, 1, cx -> {
                if (yRan.incrementAndGet() > yields) {
                    yDoneAt.set(round.get());
                    return Poll.ready(null);
                }
                cx.waker().wake();             // yield
                return Poll.pending();
            });
            rt.run(cx -> {
                pp.wakers[0].wake();
                pp.wakers[2].wake();
                return Poll.ready(null);
            });
            pp.join();
            // One ping-pong round per batch, and Y's turn after each: done within a few rounds.
            assertThat(yDoneAt.get()).isBetween(0, yields + 2);
        }
    }

    /**
     * One worker. A and B keep waking each other, so the hot queue is never empty when the worker
     * picks; Y spawns C from inside (into the cold deque) and then yields until C has run, so the
     * yield queue is never empty either. The class overview promises that every
     * {@value AsyncWorker#GLOBAL_INTERVAL}th pick takes the cold deque when the injector is empty,
     * so that cold does not starve behind a hot queue that never empties; that periodic pick must
     * not always go to the yield queue instead, or C waits for the whole ping-pong.
     */
    @Test
    void aYieldingTaskAndAHotQueueThatNeverEmptiesDoNotStarveTheColdDeque() throws Exception {
        int rounds = 20_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(AsyncPolicy.HYBRID).build()) {
            AtomicInteger round = new AtomicInteger();
            AtomicInteger cRanAt = new AtomicInteger(-1);
            AtomicReference<JoinHandle<Void>> c = new AtomicReference<>();
            PingPong pp = new PingPong(rt, round, rounds, 1, cx -> {
                if (cRanAt.get() >= 0) {
                    return Poll.ready(null);
                }
                if (c.get() == null) {
                    c.set(rt.spawn(cx2 -> {    // spawned on the worker: HYBRID's cold deque
                        cRanAt.set(round.get());
                        return Poll.ready(null);
                    }));
                }
                cx.waker().wake();             // yield, until C has run
                return Poll.pending();
            });
            rt.run(cx -> {
                pp.wakers[0].wake();
                pp.wakers[2].wake();
                return Poll.ready(null);
            });
            pp.join();
            c.get().get(WAIT_S, TimeUnit.SECONDS);
            assertThat(cRanAt.get())
                    .as("ping-pong round at which the cold task ran (of %d)", rounds)
                    .isBetween(0, AsyncWorker.GLOBAL_INTERVAL);
        }
    }

    /**
     * One worker. Y was woken three times and a to e twice each, so Y heads the hot batch; Y
     * yields on each of its first seven polls. After each pick from the hot queue, the yield queue
     * gets its turn: Y alternates with a to e instead of waiting for the whole batch.
     */
    @Test
    void yieldsTakeTurnsWithTheHotQueue() throws Exception {
        List<String> ran = order(AsyncPolicy.HYBRID, new String[] {"Y", "a", "b", "c", "d", "e"},
                new int[] {3, 2, 2, 2, 2, 2}, 7);
        assertThat(ran).containsExactly("Y", "Y", "a", "Y", "b", "Y", "c", "Y", "d", "Y", "e", "Y", "Y");
    }
}
