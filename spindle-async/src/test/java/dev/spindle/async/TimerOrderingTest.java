/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class TimerOrderingTest {

    private static final long MS = 1_000_000L;

    @Test
    void entriesFireInDeadlineOrderAndFifoAmongEqualDeadlines() throws Exception {
        // far enough ahead that all 40 are scheduled before the first deadline on a loaded
        // machine: the timer thread fires what is due as it comes, so an entry scheduled after
        // the first ones fired would fire after them whatever its deadline
        long base = System.nanoTime() + 300 * MS;
        // 40 entries on 10 distinct deadlines, scheduled in a shuffled order
        List<int[]> plan = new ArrayList<>(); // {id, slot}
        for (int id = 0; id < 40; id++) {
            plan.add(new int[] {id, id % 10});
        }
        Collections.shuffle(plan, new Random(42));
        List<Integer> fired = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch all = new CountDownLatch(plan.size());
        List<int[]> expected = new ArrayList<>(plan); // stable sort keeps scheduling order on ties
        for (int[] e : plan) {
            Timers.schedule(base + e[1] * 2 * MS, () -> {
                fired.add(e[0]);
                all.countDown();
            });
        }
        assertThat(all.await(10, TimeUnit.SECONDS)).isTrue();
        expected.sort((x, y) -> Integer.compare(x[1], y[1]));
        List<Integer> expectedIds = new ArrayList<>();
        expected.forEach(e -> expectedIds.add(e[0]));
        assertThat(fired).containsExactlyElementsOf(expectedIds);
    }

    @Test
    void cancelledEntriesNeverFireAndTheRestStillFireInOrder() throws Exception {
        Random rnd = new Random(7);
        // far enough ahead that scheduling and cancelling a thousand entries ends before the
        // first deadline on a loaded machine (20 ms was not, and entries fired before their cancel)
        long base = System.nanoTime() + 300 * MS;
        int n = 1000;
        List<Timers.Entry> entries = new ArrayList<>();
        long[] deadlines = new long[n];
        List<Integer> fired = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < n; i++) {
            deadlines[i] = base + rnd.nextInt(40) * MS;
            int id = i;
            entries.add(Timers.schedule(deadlines[i], () -> fired.add(id)));
        }
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (rnd.nextBoolean()) {
                entries.get(i).cancel();
                entries.get(i).cancel(); // idempotent
            } else {
                kept.add(i);
            }
        }
        CountDownLatch last = new CountDownLatch(1);
        Timers.schedule(base + 41 * MS, last::countDown);
        assertThat(last.await(10, TimeUnit.SECONDS)).isTrue();
        kept.sort((a, b) -> deadlines[a] != deadlines[b] ? Long.compare(deadlines[a], deadlines[b]) : Integer.compare(a, b));
        assertThat(fired).containsExactlyElementsOf(kept);
    }

    @Test
    void sleepsCompleteInDeadlineOrder() {
        // the shared timer's thread started and the classes loaded before any deadline is set
        TestExecutor.run(Async.sleep(Duration.ofMillis(1)));
        TestExecutor ex = new TestExecutor();
        // Every sleep must have had its first poll (and so its timer entry) before the first
        // deadline: one first polled after its deadline is ready at once, in spawn order,
        // whatever the timers do. 20 ms ahead was not enough on a loaded machine, and the test
        // failed with the sleeps in spawn order; a machine that stalls even past this head start
        // makes the run inconclusive, and it is skipped rather than failed (below).
        long base = System.nanoTime() + 500 * MS;
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            slots.add(i);
        }
        Collections.shuffle(slots, new Random(3));
        // each sleep is a task of its own: the executor polls tasks in the order they were woken
        CompletableFuture<Void> allDone = new CompletableFuture<>();
        for (int slot : slots) {
            ex.spawn(Async.map(Async.sleepUntil(base + slot * 3 * MS), x -> {
                order.add(slot);
                if (order.size() == slots.size()) {
                    allDone.complete(null);
                }
                return null;
            }));
        }
        // blockOn's own task is queued after the spawned sleeps: its first poll follows theirs
        AsyncTask<Void> done = Async.from(allDone);
        long[] sleepsPolledBy = {0};
        boolean[] polled = {false};
        ex.blockOn(cx -> {
            if (!polled[0]) {
                polled[0] = true;
                sleepsPolledBy[0] = System.nanoTime();
            }
            return done.poll(cx);
        });
        assumeTrue(sleepsPolledBy[0] - base < 0, "the machine stalled past the first deadline before every"
                + " sleep was polled: their order says nothing of the timers'");
        assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
    }

    @Test
    void sleepDoesNotCompleteBeforeItsDuration() {
        for (int ms : new int[] {1, 15, 40}) {
            long t0 = System.nanoTime();
            TestExecutor.run(Async.sleep(Duration.ofMillis(ms)));
            assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(ms * MS);
        }
        String now = TestExecutor.run(Async.map(Async.sleep(Duration.ofMillis(-5)), x -> "now"));
        assertThat(now).isEqualTo("now");
    }

    @Test
    void cancellingASleepRemovesItsTimerEntry() {
        int before = Timers.pending();
        AsyncTask<Void> s = Async.sleep(Duration.ofHours(1));
        assertThat(s.poll(new AsyncCombinatorTest.HandContext()).isPending()).isTrue();
        assertThat(Timers.pending()).isEqualTo(before + 1);
        Async.cancel(s);
        assertThat(Timers.pending()).isEqualTo(before);
    }

    @Test
    void timeoutFiresForATaskThatNeverCompletes() {
        AsyncCombinatorTest.Gate<String> never = new AsyncCombinatorTest.Gate<>();
        int before = Timers.pending();
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> TestExecutor.run(Async.timeout(never, Duration.ofMillis(25))))
                .isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(TimeoutException.class);
        assertThat(System.nanoTime() - t0).isGreaterThanOrEqualTo(25 * MS);
        assertThat(never.cancelled).isTrue();
        assertThat(Timers.pending()).isEqualTo(before);
    }

    @Test
    void timeoutDoesNotFireForATaskThatCompletesInTime() {
        int before = Timers.pending();
        String r = TestExecutor.run(Async.timeout(
                Async.map(Async.sleep(Duration.ofMillis(5)), x -> "in time"), Duration.ofSeconds(30)));
        assertThat(r).isEqualTo("in time");
        assertThat(Timers.pending()).isEqualTo(before); // the 30 s entry was removed
        assertThatThrownBy(() -> TestExecutor.run(Async.timeout(
                Async.failed(new IllegalStateException("inner")), Duration.ofSeconds(30))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(Timers.pending()).isEqualTo(before);
    }
}
