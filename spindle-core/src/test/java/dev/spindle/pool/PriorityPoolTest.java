package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** PriorityPool: more urgent first, FIFO among equals, levels added concurrently. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PriorityPoolTest {

    record Job(int priority, int seq) {
    }

    /**
     * One worker, blocked on a latch while mixed priorities are queued: once released it must
     * run them sorted by priority and, among equal priorities, in submission order.
     */
    @Test
    void oneWorkerRunsByPriorityThenFifo() throws Exception {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 20; round++) {
            try (PriorityPool pool = PriorityPool.builder().workers(1).build()) {
                CountDownLatch gate = new CountDownLatch(1);
                CountDownLatch blocked = new CountDownLatch(1);
                pool.execute(() -> {
                    blocked.countDown();
                    LifecycleTest.await(gate);
                }, Hints.ofPriority(Integer.MAX_VALUE));
                assertThat(blocked.await(10, TimeUnit.SECONDS)).isTrue();
                List<Job> submitted = new ArrayList<>();
                List<Job> ran = Collections.synchronizedList(new ArrayList<>());
                for (int seq = 0; seq < 300; seq++) {
                    int p = switch (rnd.nextInt(5)) {
                        case 0 -> Integer.MIN_VALUE;
                        case 1 -> -5;
                        case 2 -> 0;
                        case 3 -> 3;
                        default -> Integer.MAX_VALUE;
                    };
                    Job j = new Job(p, seq);
                    submitted.add(j);
                    if (p == 0 && rnd.nextBoolean()) {
                        pool.execute(() -> ran.add(j));          // plain execute means priority 0
                    } else {
                        pool.execute(() -> ran.add(j), Hints.ofPriority(p));
                    }
                }
                gate.countDown();
                pool.shutdown();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
                List<Job> expected = new ArrayList<>(submitted);
                expected.sort(Comparator.comparingInt(Job::priority)); // stable: keeps FIFO among equals
                assertThat(ran).containsExactlyElementsOf(expected);
                assertThat(pool.priorities()).isSorted().doesNotHaveDuplicates();
            }
        }
    }

    /** Tasks submitted by a worker are ordered the same way. */
    @Test
    void tasksFromAWorkerAreOrderedToo() throws Exception {
        try (PriorityPool pool = PriorityPool.builder().workers(1).build()) {
            List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(() -> {
                for (int i = 0; i < 30; i++) {
                    int v = i;
                    pool.execute(() -> ran.add(v), Hints.ofPriority(-(i % 3)));
                }
                pool.execute(done::countDown, Hints.ofPriority(1));
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            List<Integer> expected = new ArrayList<>();
            for (int r = 2; r >= 0; r--) {
                for (int i = r; i < 30; i += 3) {
                    expected.add(i);
                }
            }
            assertThat(ran).containsExactlyElementsOf(expected);
        }
    }

    /** Many threads creating the same and new levels at once: no task lost, levels sorted. */
    @Test
    void concurrentNewLevelsLoseNothing() throws Exception {
        try (PriorityPool pool = PriorityPool.builder().workers(2).build()) {
            int threads = 4;
            int perThread = 20_000;
            CountDownLatch done = new CountDownLatch(threads * perThread);
            Thread[] ts = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int id = t;
                ts[t] = new Thread(() -> {
                    for (int i = 0; i < perThread; i++) {
                        pool.execute(done::countDown, Hints.ofPriority((i * 7 + id) % 40 - 20));
                    }
                });
                ts[t].start();
            }
            for (Thread t : ts) {
                t.join();
            }
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            int[] ps = pool.priorities();
            assertThat(ps).isSorted().doesNotHaveDuplicates().hasSize(40);
        }
    }
}
