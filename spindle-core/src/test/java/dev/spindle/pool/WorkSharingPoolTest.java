package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Spindle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The LIFO slot of WorkSharingPool: locality, LIFO order, the starvation bound, no stranding. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkSharingPoolTest {

    /** A chain of tasks, each executing the next from its worker, stays on one thread. */
    @Test
    void aTaskExecutedFromAWorkerRunsNextOnTheSameWorker() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).build()) {
            for (int round = 0; round < 50; round++) {
                List<Thread> ran = Collections.synchronizedList(new ArrayList<>());
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(new Runnable() {
                    int left = 20;

                    @Override
                    public void run() {
                        ran.add(Thread.currentThread());
                        if (--left > 0) {
                            pool.execute(this);
                        } else {
                            done.countDown();
                        }
                    }
                });
                assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(ran).hasSize(20);
                assertThat(new java.util.HashSet<>(ran)).as("threads of round %d", round).hasSize(1);
            }
        }
    }

    /** The newest task takes the slot; the one it displaces goes to the shared queue. */
    @Test
    void theNewestTaskRunsFirstAndTheDisplacedOneStillRuns() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build()) {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(3);
            pool.execute(() -> {
                pool.execute(() -> {
                    order.add("first");
                    done.countDown();
                });
                pool.execute(() -> {
                    order.add("second");
                    done.countDown();
                });
                order.add("parent");
                done.countDown();
            });
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(order).containsExactly("parent", "second", "first");
        }
    }

    /**
     * One worker; a chain of slot tasks; an external task queued meanwhile must run after at
     * most MAX_SLOT_RUNS chain hops, not after the whole chain.
     */
    @Test
    void theSlotDoesNotStarveTheSharedQueue() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).build()) {
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch externalQueued = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(2);
            pool.execute(() -> {
                started.countDown();
                LifecycleTest.await(externalQueued);
                pool.execute(new Runnable() {
                    int hop = 0;

                    @Override
                    public void run() {
                        order.add("chain-" + hop);
                        if (++hop < 100) {
                            pool.execute(this);
                        } else {
                            done.countDown();
                        }
                    }
                });
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            pool.execute(() -> {
                order.add("external");
                done.countDown();
            });
            externalQueued.countDown();
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(order).hasSize(101);
            assertThat(order.indexOf("external")).isLessThanOrEqualTo(WorkSharingPool.MAX_SLOT_RUNS);
        }
    }

    /** A slot task must not be stranded behind a task that blocks inside Spindle.blocking. */
    @Test
    void aBlockingSectionHandsTheSlotTaskToAnotherWorker() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).build()) {
            for (int i = 0; i < 20; i++) {
                CountDownLatch slotTaskRan = new CountDownLatch(1);
                AtomicBoolean sawIt = new AtomicBoolean();
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(() -> {
                    pool.execute(slotTaskRan::countDown);  // into this worker's slot
                    sawIt.set(Spindle.blocking(() -> awaitQuietly(slotTaskRan)));
                    done.countDown();
                });
                assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
                assertThat(sawIt).as("round %d: slot task ran while its worker blocked", i).isTrue();
            }
        }
    }

    /** shutdownNow returns a task waiting in a busy worker's slot; it never runs. */
    @Test
    void shutdownNowReturnsSlotTasks() throws Exception {
        WorkSharingPool pool = WorkSharingPool.builder().workers(1).build();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean slotRan = new AtomicBoolean();
        Runnable slotTask = () -> slotRan.set(true);
        pool.execute(() -> {
            pool.execute(slotTask);
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException expected) {
                // shutdownNow
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.stats().queued()).isEqualTo(1);
        assertThat(pool.stats().sharedQueued()).as("a slot task is the worker's own").isZero();
        assertThat(pool.stats().workers().get(0).queued()).isEqualTo(1);
        List<Runnable> notStarted = pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(notStarted).containsExactly(slotTask);
        assertThat(slotRan).isFalse();
    }

    /** External work spreads over the workers (the shared queue is shared). */
    @Test
    void externalTasksRunOnSeveralWorkers() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).build()) {
            CountDownLatch bothIn = new CountDownLatch(2);
            CountDownLatch done = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    bothIn.countDown();        // both must be running at once to pass
                    if (bothIn.getCount() == 0 || awaitQuietly(bothIn)) {
                        done.countDown();
                    }
                });
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static boolean awaitQuietly(CountDownLatch l) {
        try {
            return l.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
