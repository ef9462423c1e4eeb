package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Futures cancelled while their tasks are being taken: a task on a worker submits many children
 * (into its own deque, slot or queue, where other workers steal or take them; from outside on a
 * pinned pool) and waits for them,
 * while a thread outside cancels them at random, with and without interrupt. A cancel that
 * returned {@code true} before the task started must keep it from ever starting, whoever takes
 * it; a task not cancelled runs exactly once and its future holds its value; every future ends
 * done, the waiting task's waits return, and the pool terminates.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FutureCancelledWhileItsTaskIsTakenTest {

    private static final int ROUNDS = 20;
    private static final int CHILDREN = 4_000;

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aCancelledTaskThatHadNotStartedNeverRuns(PoolKind kind) throws Exception {
        SplittableRandom master = new SplittableRandom(20261207L + kind.ordinal());
        for (int r = 0; r < ROUNDS; r++) {
            runRound(kind + " round " + r, kind, master.split());
        }
    }

    private static void runRound(String what, PoolKind kind, SplittableRandom rnd) throws Exception {
        PoolBuilder<?> b = kind.builder().workers(2 + rnd.nextInt(3));
        if (b instanceof WorkStealingPool.Builder ws) {
            ws.localQueueCapacity(1 << (3 + rnd.nextInt(6)));
        }
        PoolCore pool = kind.build(b);
        AtomicIntegerArray started = new AtomicIntegerArray(CHILDREN);
        AtomicIntegerArray runs = new AtomicIntegerArray(CHILDREN);
        AtomicIntegerArray cancelledUnstarted = new AtomicIntegerArray(CHILDREN);
        AtomicIntegerArray cancelTrue = new AtomicIntegerArray(CHILDREN);
        AtomicReferenceArray<Future<Integer>> futures = new AtomicReferenceArray<>(CHILDREN);
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        CountDownLatch published = new CountDownLatch(1);
        Runnable body = () -> {
            for (int i = 0; i < CHILDREN; i++) {
                int id = i;
                futures.set(id, pool.submit(() -> {
                    started.set(id, 1);
                    runs.incrementAndGet(id);
                    for (int spin = id % 64; spin > 0; spin--) {
                        Thread.onSpinWait();
                    }
                    return id;
                }));
                if (i == CHILDREN / 8) {
                    published.countDown();
                }
            }
            published.countDown();
            for (int i = 0; i < CHILDREN; i++) {
                try {
                    futures.get(i).get();
                } catch (CancellationException | ExecutionException expected) {
                    // cancelled by the other thread
                } catch (InterruptedException e) {
                    unexpected.compareAndSet(null, e);
                    return;
                }
            }
        };
        // A pinned worker's own submissions stay on it, so its wait for them would wait for ever
        // (as documented): there, the children are submitted and waited for from outside
        Future<?> root = kind == PoolKind.PINNED ? CompletableFuture.runAsync(body, r -> new Thread(r).start())
                : pool.submit(body);
        long seed = rnd.nextLong();
        Thread canceller = new Thread(() -> {
            SplittableRandom local = new SplittableRandom(seed);
            try {
                published.await();
                for (int i = 0; i < CHILDREN; i++) {
                    Future<Integer> f;
                    while ((f = futures.get(i)) == null) {
                        Thread.onSpinWait();
                    }
                    if (local.nextInt(3) != 0) {
                        continue;
                    }
                    if (f.cancel(local.nextBoolean())) {
                        cancelTrue.set(i, 1);
                        if (started.get(i) == 0) {
                            cancelledUnstarted.set(i, 1);   // must never start now
                        }
                    }
                }
            } catch (Throwable t) {
                unexpected.compareAndSet(null, t);
            }
        }, "canceller");
        canceller.start();
        canceller.join(TimeUnit.SECONDS.toMillis(120));
        assertThat(canceller.isAlive()).as("%s: the canceller finished", what).isFalse();
        root.get(120, TimeUnit.SECONDS);
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).as("%s: terminated", what).isTrue();
        assertThat(unexpected.get()).as("%s: nothing unexpected", what).isNull();
        for (int i = 0; i < CHILDREN; i++) {
            Future<Integer> f = futures.get(i);
            int n = runs.get(i);
            assertThat(f.isDone()).as("%s: child %d done", what, i).isTrue();
            assertThat(n).as("%s: child %d ran at most once", what, i).isLessThanOrEqualTo(1);
            if (cancelledUnstarted.get(i) == 1) {
                assertThat(n).as("%s: child %d, cancelled before it started, ran", what, i).isZero();
            }
            if (cancelTrue.get(i) == 0) {
                assertThat(n).as("%s: child %d, not cancelled, ran once", what, i).isEqualTo(1);
                assertThat(f.get()).isEqualTo(i);
            } else {
                assertThat(f.isCancelled()).as("%s: child %d cancelled", what, i).isTrue();
            }
        }
    }
}
