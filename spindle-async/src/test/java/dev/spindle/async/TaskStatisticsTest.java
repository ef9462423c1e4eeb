/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Per-task poll statistics and {@link AsyncRuntime#busiestTasks}: checked by counts and by
 * orderings that hold by construction (one poll's interval contains another's), never by a
 * timing threshold.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TaskStatisticsTest {

    /** Pending for ever, keeping its waker; counts its polls. */
    static final class Parked implements AsyncTask<Void> {
        final AtomicReference<Waker> waker = new AtomicReference<>();
        final AtomicInteger polls = new AtomicInteger();

        @Override
        public Poll<Void> poll(Context cx) {
            waker.set(cx.waker());
            polls.incrementAndGet();
            return Poll.pending();
        }
    }

    /** Its first poll busy-waits until {@code release} opens; pending for ever after. */
    static final class HoldsItsWorker implements AsyncTask<Void> {
        final CountDownLatch polling = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public Poll<Void> poll(Context cx) {
            polling.countDown();
            while (release.getCount() > 0) {
                Thread.onSpinWait();           // blocks the worker on purpose: a long poll
            }
            return Poll.pending();
        }
    }

    /** Polls {@code rt.busiestTasks} until {@code done} holds (the test's timeout bounds it). */
    private static BusiestTasks awaitBusiest(AsyncRuntime rt, int n, Predicate<BusiestTasks> done) {
        for (;;) {
            BusiestTasks b = rt.busiestTasks(n);
            if (done.test(b)) {
                return b;
            }
            Thread.onSpinWait();
        }
    }

    private static TaskStats find(BusiestTasks b, String taskClass) {
        return b.longestPolls().stream().filter(t -> t.taskClass().equals(taskClass)).findFirst().orElse(null);
    }

    /**
     * A poll leaves the cell's word {@code SCHEDULED} (taking its queue entry is the claim, see
     * {@link TaskCell}), so the statistics tell a running task by {@code TaskCell.polledBy}.
     */
    @Test
    void aCellBeingPolledIsShownRunningThoughItsWordSaysScheduled() {
        TaskCell<Object> c = new TaskCell<>(null, cx -> Poll.pending(), TaskInsight.atSpawn(true));
        assertThat(TaskInsight.statsOf(c).state()).isEqualTo(TaskStats.State.SCHEDULED);
        long before = c.word();                // a worker took the cell's entry and polls it
        c.polledBy = 1;
        assertThat(c.state()).isEqualTo(TaskCell.SCHEDULED);
        assertThat(TaskInsight.statsOf(c).state()).isEqualTo(TaskStats.State.RUNNING);
        c.polledBy = 0;                        // the poll returned pending
        assertThat(c.finishPending(new LiveTasks(), before)).isFalse();
        assertThat(TaskInsight.statsOf(c).state()).isEqualTo(TaskStats.State.IDLE);
    }

    @Test
    void aPollThatHoldsItsWorkerRanksAboveOneThatReturnsAtOnce() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).taskStatistics(true).spawnSites(true).name("stats-long").build()) {
            HoldsItsWorker slow = new HoldsItsWorker();
            rt.spawn(slow);
            assertThat(slow.polling.await(30, TimeUnit.SECONDS)).isTrue();
            // spawned while slow's poll is under way, polled by the other worker, and seen
            // polled before slow's poll ends: its whole poll lies inside slow's
            Parked quick = new Parked();
            rt.spawn(quick);
            awaitBusiest(rt, 10, b -> {
                TaskStats q = find(b, Parked.class.getName());
                return q != null && q.polls() == 1;
            });
            slow.release.countDown();
            // The poll's statistics are recorded as the poll returns, a moment before the worker
            // marks the poll over and the cell idle: wait for both, or the state read races it.
            BusiestTasks b = awaitBusiest(rt, 10, x -> {
                TaskStats s = find(x, HoldsItsWorker.class.getName());
                return s != null && s.polls() == 1 && s.state() == TaskStats.State.IDLE;
            });
            assertThat(b.longestPolls()).extracting(TaskStats::taskClass)
                    .containsExactly(HoldsItsWorker.class.getName(), Parked.class.getName());
            TaskStats s = b.longestPolls().get(0);
            TaskStats q = b.longestPolls().get(1);
            assertThat(s.longestPollNanos()).isGreaterThan(q.longestPollNanos());
            assertThat(s.totalPollNanos()).isEqualTo(s.longestPollNanos()).isEqualTo(s.meanPollNanos());
            assertThat(s.state()).isEqualTo(TaskStats.State.IDLE);
            assertThat(s.id()).isNotEqualTo(q.id());
            assertThat(s.spawnSite()).startsWith(TaskStatisticsTest.class.getName()
                    + ".aPollThatHoldsItsWorkerRanksAboveOneThatReturnsAtOnce(TaskStatisticsTest.java:");
        }
    }

    @Test
    void aTaskWokenFiftyTimesShowsFiftyWakeUps() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).taskStatistics(true).name("stats-wakes").build()) {
            Parked woken = new Parked();
            Parked once = new Parked();
            rt.spawn(woken);
            rt.spawn(once);
            for (int i = 1; i <= 50; i++) {
                while (woken.polls.get() < i) {
                    Thread.onSpinWait();       // one wake per poll, so every wake is polled
                }
                woken.waker.get().wake();
            }
            // once has statistics only from its first poll, which nothing above waits for: on a
            // loaded machine the other worker may not have run at all, and woken's worker, kept
            // busy by the wakes, may take once only after woken's last poll. Wait for both listed.
            BusiestTasks both = awaitBusiest(rt, 2,
                    x -> x.mostWoken().size() == 2 && x.mostWoken().get(0).polls() == 51);
            TaskStats top = both.mostWoken().get(0);
            assertThat(top.wakes()).isEqualTo(50);
            assertThat(both.mostWoken()).extracting(TaskStats::wakes).containsExactly(50L, 0L);
            assertThat(both.examined()).isEqualTo(2);
            assertThat(rt.busiestTasks(1).mostWoken()).extracting(TaskStats::wakes).containsExactly(50L);
        }
    }

    @Test
    void statisticsOffRecordNothingAndAllocateNoInsight() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("stats-off").build()) {
            assertThat(rt.taskStatisticsEnabled()).isFalse();
            Parked p = new Parked();
            TaskCell<?> c = (TaskCell<?>) rt.spawn(p);
            while (p.polls.get() < 1) {
                Thread.onSpinWait();
            }
            p.waker.get().wake();
            while (p.polls.get() < 2) {
                Thread.onSpinWait();
            }
            BusiestTasks b = rt.busiestTasks(10);
            assertThat(b.longestPolls()).isEmpty();
            assertThat(b.mostWoken()).isEmpty();
            assertThat(b.examined()).isEqualTo(1);
            assertThat(TaskInsight.of(c)).as("no side object for a user who never enables statistics").isNull();
        }
    }

    @Test
    void statisticsEnabledLaterCountFromTheNextPollWithoutASpawnSite() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("stats-later").build()) {
            Parked p = new Parked();
            rt.spawn(p);
            while (p.polls.get() < 1) {
                Thread.onSpinWait();
            }
            rt.enableTaskStatistics();
            assertThat(rt.taskStatisticsEnabled()).isTrue();
            p.waker.get().wake();
            BusiestTasks b = awaitBusiest(rt, 5, x -> !x.longestPolls().isEmpty() && x.longestPolls().get(0).polls() == 1);
            TaskStats t = b.longestPolls().get(0);
            assertThat(t.spawnSite()).isNull();
            assertThat(t.wakes()).isEqualTo(1);
            assertThat(t.taskClass()).isEqualTo(Parked.class.getName());
        }
    }

    @Test
    void finishedTasksAreNotListed() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).taskStatistics(true).name("stats-done").build()) {
            rt.spawn(cx -> Poll.ready(1)).get(30, TimeUnit.SECONDS);
            assertThat(rt.busiestTasks(10).longestPolls()).isEmpty();
        }
    }

    @Test
    void theWorkOfOneCallIsBounded() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).taskStatistics(true).name("stats-many").build()) {
            int spawned = AsyncRuntime.MAX_TASKS_EXAMINED + 50;
            for (int i = 0; i < spawned; i++) {
                rt.spawn(cx -> Poll.pending());  // pending for ever, never woken
            }
            // A task has statistics once polled: wait for the worker's first poll of every one
            // (the spawns above only queue them; asking at once raced with the worker).
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (rt.stats().polls() < spawned && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            BusiestTasks b = rt.busiestTasks(AsyncRuntime.MAX_BUSIEST_TASKS);
            assertThat(b.examined()).isEqualTo(AsyncRuntime.MAX_TASKS_EXAMINED);
            assertThat(b.longestPolls()).hasSize(AsyncRuntime.MAX_BUSIEST_TASKS);
        }
    }

    @Test
    void nMustBeInRange() {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("stats-n").build()) {
            assertThatThrownBy(() -> rt.busiestTasks(0)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("n must be in [1, 1000], was 0");
            assertThatThrownBy(() -> rt.busiestTasks(AsyncRuntime.MAX_BUSIEST_TASKS + 1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n must be");
        }
    }
}
