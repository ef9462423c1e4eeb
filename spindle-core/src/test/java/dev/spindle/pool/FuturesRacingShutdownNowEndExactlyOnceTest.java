package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code submit} and {@code invokeAll} racing {@code shutdownNow()}, on every pool kind and on a
 * union that owns two pools: callables submitted from outside threads and from running tasks
 * (whose futures a worker holds), and {@code invokeAll} batches from an outside thread. The test
 * holds the list {@code shutdownNow()} returns and cancels every future in it, as its caller
 * should (and as an interrupted {@code close()} does). Then each future a {@code submit} returned
 * must have run exactly once or be in that list exactly once, never both and never neither (a
 * future neither run nor returned is one whose {@code get} waits for good); every
 * {@code invokeAll} must return (its futures all done) or throw
 * {@link RejectedExecutionException}; and the pool must terminate.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FuturesRacingShutdownNowEndExactlyOnceTest {

    private static final int ROUNDS = 12;
    private static final int IDS = 40_000;

    @ParameterizedTest
    @ValueSource(strings = {"STEALING", "SHARING", "PRIORITY", "PINNED", "UNION"})
    void everySubmittedFutureRunsOnceOrIsReturnedOnce(String kind) throws Exception {
        SplittableRandom master = new SplittableRandom(20261207L + kind.hashCode());
        for (int r = 0; r < ROUNDS; r++) {
            runRound(kind + " round " + r, kind, master.split());
        }
    }

    private static void runRound(String what, String kind, SplittableRandom rnd) throws Exception {
        RacingSubmits round = new RacingSubmits(IDS, false);
        round.pool = RacingSubmits.create(kind, 1 + rnd.nextInt(3));
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            long seed = rnd.nextLong();
            threads.add(new Thread(() -> {
                SplittableRandom local = new SplittableRandom(seed);
                for (int id; (id = round.claimId()) >= 0 && !round.pool.isShutdown(); ) {
                    round.submit(id, local.nextLong());
                }
            }, "submitter-" + s));
        }
        List<List<Future<Integer>>> batches = Collections.synchronizedList(new ArrayList<>());
        long batchSeed = rnd.nextLong();
        threads.add(new Thread(() -> {
            SplittableRandom local = new SplittableRandom(batchSeed);
            int[] ids = new int[4];
            while (!round.pool.isShutdown()) {
                List<Callable<Integer>> batch = new ArrayList<>();
                for (int i = 0; i < ids.length; i++) {
                    int id = round.claimId();
                    if (id < 0) {
                        return;
                    }
                    batch.add(round.task(id, local.nextLong()));
                }
                try {
                    batches.add(round.pool.invokeAll(batch));
                } catch (RejectedExecutionException refused) {
                    return;
                } catch (Throwable t) {
                    round.unexpected.compareAndSet(null, t);
                    return;
                }
            }
        }, "invoker"));
        threads.forEach(Thread::start);
        long cut = (long) (IDS * (0.1 + 0.6 * rnd.nextDouble()));
        while (round.nextId.get() < cut) {
            Thread.onSpinWait();
        }
        List<Runnable> notRun = round.pool.shutdownNow();
        Map<Object, Integer> returned = new IdentityHashMap<>();
        for (Runnable task : notRun) {
            returned.merge(task, 1, Integer::sum);
            if (task instanceof Future<?> f) {
                f.cancel(false);               // as the list's holder should: its waiters are told
            }
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("%s: %s finished (an invokeAll waits for good?)", what, t.getName()).isFalse();
        }
        assertThat(round.pool.awaitTermination(60, TimeUnit.SECONDS)).as("%s: terminated", what).isTrue();
        assertThat(round.unexpected.get()).as("%s: nothing unexpected thrown", what).isNull();
        for (List<Future<Integer>> batch : batches) {
            for (Future<Integer> f : batch) {
                assertThat(f.isDone()).as("%s: a future invokeAll returned is done", what).isTrue();
            }
        }
        for (Map.Entry<Object, Integer> e : returned.entrySet()) {
            assertThat(e.getValue()).as("%s: %s returned once", what, e.getKey()).isEqualTo(1);
        }
        for (int id = 0; id < IDS; id++) {
            int runs = round.runs.get(id);
            Future<?> f = round.futures.get(id);
            assertThat(runs).as("%s: id %d ran at most once", what, id).isLessThanOrEqualTo(1);
            if (round.refused.get(id) == 1) {
                assertThat(runs).as("%s: id %d was refused but ran", what, id).isZero();
            }
            if (f == null) {
                continue;                      // refused, never claimed, or part of an invokeAll batch
            }
            boolean back = returned.containsKey(f);
            if (runs + (back ? 1 : 0) != 1) {
                throw new AssertionError(what + ": id " + id + " ran " + runs + " times, returned " + back
                        + ", future " + f + (f.isDone() ? " done" : " not done"));
            }
            if (back) {
                assertThat(f.isCancelled()).as("%s: id %d returned and cancelled", what, id).isTrue();
            } else {
                assertThat(f.isDone()).as("%s: id %d ran, its future done", what, id).isTrue();
                try {
                    assertThat(f.get()).isEqualTo(id);
                } catch (CancellationException notExpected) {
                    throw new AssertionError(what + ": id " + id + " ran but its future was cancelled");
                }
            }
        }
    }
}
