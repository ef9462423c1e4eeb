package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** PinnedPool: a task runs on worker {@code hint % workers}, and tasks never migrate. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PinnedPoolTest {

    @Test
    void eachWorkerIndexRunsOnItsOwnThread() throws Exception {
        int workers = 3;
        try (PinnedPool pool = PinnedPool.builder().workers(workers).name("pin").build()) {
            Map<Integer, Set<Thread>> byIndex = new ConcurrentHashMap<>();
            int tasks = 3000;
            CountDownLatch done = new CountDownLatch(tasks);
            for (int i = 0; i < tasks; i++) {
                int hint = i % 7;              // also indices >= workers: taken modulo
                pool.execute(() -> {
                    byIndex.computeIfAbsent(hint % workers, k -> ConcurrentHashMap.newKeySet())
                            .add(Thread.currentThread());
                    done.countDown();
                }, Hints.DEFAULT.withWorkerIndex(hint));
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            Set<Thread> all = new HashSet<>();
            for (int i = 0; i < workers; i++) {
                assertThat(byIndex.get(i)).as("threads of index %d", i).hasSize(1);
                Thread t = byIndex.get(i).iterator().next();
                assertThat(t.getName()).isEqualTo("pin-worker-" + i);
                all.add(t);
            }
            assertThat(all).hasSize(workers);
        }
    }

    @Test
    void tasksFromAWorkerWithoutHintStayOnThatWorker() throws Exception {
        try (PinnedPool pool = PinnedPool.builder().workers(3).build()) {
            for (int start = 0; start < 3; start++) {
                Set<Thread> seen = ConcurrentHashMap.newKeySet();
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(new Runnable() {
                    int left = 200;

                    @Override
                    public void run() {
                        seen.add(Thread.currentThread());
                        for (int k = 0; k < 2 && left > 0; k++) {
                            left--;
                            pool.execute(left == 0 ? done::countDown : () -> seen.add(Thread.currentThread()));
                        }
                        if (left > 0) {
                            pool.execute(this);
                        }
                    }
                }, Hints.DEFAULT.withWorkerIndex(start));
                assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(seen).hasSize(1);
                assertThat(seen.iterator().next().getName()).endsWith("-worker-" + start);
            }
        }
    }

    @Test
    void externalTasksWithoutHintGoRoundRobinAndRunInOrderPerWorker() throws Exception {
        int workers = 4;
        try (PinnedPool pool = PinnedPool.builder().workers(workers).build()) {
            Map<Thread, List<Integer>> byThread = new ConcurrentHashMap<>();
            int tasks = 400;
            CountDownLatch done = new CountDownLatch(tasks);
            for (int i = 0; i < tasks; i++) {
                int v = i;
                pool.execute(() -> {
                    byThread.computeIfAbsent(Thread.currentThread(), k -> Collections.synchronizedList(new ArrayList<>())).add(v);
                    done.countDown();
                });
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(byThread).hasSize(workers);
            for (List<Integer> vs : byThread.values()) {
                assertThat(vs).hasSize(tasks / workers).isSorted();
                int residue = vs.get(0) % workers;
                assertThat(vs).allMatch(v -> v % workers == residue);
            }
        }
    }

    /** A worker sending to a parked peer wakes exactly that peer. */
    @Test
    void workerToWorkerPingPong() throws Exception {
        try (PinnedPool pool = PinnedPool.builder().workers(2).name("pp").build()) {
            CountDownLatch done = new CountDownLatch(1);
            List<String> wrongThread = Collections.synchronizedList(new ArrayList<>());
            pool.execute(new Runnable() {
                int hops = 0;

                @Override
                public void run() {
                    String expected = "pp-worker-" + (hops % 2);
                    if (!Thread.currentThread().getName().equals(expected)) {
                        wrongThread.add(Thread.currentThread().getName() + " at hop " + hops);
                    }
                    if (++hops == 20_000) {
                        done.countDown();
                    } else {
                        pool.execute(this, Hints.DEFAULT.withWorkerIndex(hops));
                    }
                }
            }, Hints.DEFAULT.withWorkerIndex(0));
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(wrongThread).isEmpty();
        }
    }
}
