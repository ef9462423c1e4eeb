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

    private static List<String> order(SchedulerKind kind) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).scheduler(kind).build()) {
            List<String> ran = new CopyOnWriteArrayList<>();
            Waker[] wakers = new Waker[NAMES.length];
            CountDownLatch firstPolls = new CountDownLatch(NAMES.length);
            List<JoinHandle<Void>> hs = new ArrayList<>();
            for (int i = 0; i < NAMES.length; i++) {
                int id = i;
                hs.add(rt.spawn(new AsyncTask<Void>() {
                    boolean polled;

                    @Override
                    public Poll<Void> poll(Context cx) {
                        if (!polled) {
                            polled = true;
                            wakers[id] = cx.waker();
                            firstPolls.countDown();
                            return Poll.pending();
                        }
                        ran.add(NAMES[id]);
                        return Poll.ready(null);
                    }
                }));
            }
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            // One worker: the driver's poll starts only after the last first poll returned.
            rt.run(cx -> {
                for (int round = 0; round < 5; round++) {
                    for (int i = 0; i < NAMES.length; i++) {
                        if (round < WAKES[i]) {
                            wakers[i].wake();
                        }
                    }
                }
                return Poll.ready(null);
            });
            for (JoinHandle<Void> h : hs) {
                h.get(WAIT_S, TimeUnit.SECONDS);
            }
            for (int i = 0; i < NAMES.length; i++) {
                assertThat(hs.get(i).wakeCount()).isEqualTo(WAKES[i]);
            }
            return ran;
        }
    }

    @Test
    void hybridRunsTheMostWokenFirstAndFifoAmongEquals() throws Exception {
        assertThat(order(SchedulerKind.HYBRID)).containsExactly("f", "b", "d", "c", "a", "e");
    }

    @Test
    void workStealingRunsWokenTasksInWakeOrder() throws Exception {
        assertThat(order(SchedulerKind.WORK_STEALING)).containsExactly("a", "b", "c", "d", "e", "f");
    }

    /**
     * One worker. A and B keep waking each other twice per poll, so their wake counts keep
     * growing; C was woken once. C must run while the ping-pong is still going on (the hot queue
     * runs in batches), not after it ends.
     */
    @Test
    void tasksWakingEachOtherDoNotStarveALessWokenTask() throws Exception {
        int rounds = 5_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).scheduler(SchedulerKind.HYBRID).build()) {
            Waker[] wakers = new Waker[3];     // A, B, C
            java.util.concurrent.atomic.AtomicInteger round = new java.util.concurrent.atomic.AtomicInteger();
            java.util.concurrent.atomic.AtomicInteger cRanAt = new java.util.concurrent.atomic.AtomicInteger(-1);
            CountDownLatch firstPolls = new CountDownLatch(3);
            List<JoinHandle<Void>> hs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int id = i;
                hs.add(rt.spawn(new AsyncTask<Void>() {
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
                            cRanAt.set(round.get());
                            return Poll.ready(null);
                        }
                        if (round.incrementAndGet() >= rounds) {
                            wakers[1 - id].wake(); // let the partner finish too
                            return Poll.ready(null);
                        }
                        wakers[1 - id].wake();
                        wakers[1 - id].wake();
                        return Poll.pending();
                    }
                }));
            }
            assertThat(firstPolls.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            rt.run(cx -> {
                wakers[2].wake();              // C: once
                wakers[0].wake();              // A: twice, so it goes first
                wakers[0].wake();
                return Poll.ready(null);
            });
            for (JoinHandle<Void> h : hs) {
                h.get(WAIT_S, TimeUnit.SECONDS);
            }
            assertThat(cRanAt.get()).isBetween(0, 2);
        }
    }

    @Test
    void hotQueueOrdersByWakeCountThenArrival() {
        HotQueue q = new HotQueue();
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
}
