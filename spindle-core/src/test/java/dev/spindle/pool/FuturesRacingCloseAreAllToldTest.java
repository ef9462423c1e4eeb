package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code submit} from outside threads and from running tasks, and {@code invokeAll} called by
 * running tasks, racing {@code close()}, plain or interrupted (which stops the pool with
 * {@code shutdownNow()} and cancels the futures among the tasks it drops), on every pool kind and
 * on a union that owns two pools. Once {@code close()} has returned the pool has terminated and
 * every future a {@code submit} returned is done: run exactly once with its value, or cancelled
 * without having run. A future left neither is one whose caller waits for good; a refused submit
 * never runs; every {@code invokeAll} returns or throws {@link RejectedExecutionException}.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class FuturesRacingCloseAreAllToldTest {

    private static final int ROUNDS = 12;
    private static final int IDS = 30_000;

    @ParameterizedTest
    @ValueSource(strings = {"STEALING", "SHARING", "PRIORITY", "PINNED", "UNION"})
    void everyAcceptedFutureRunsOnceOrIsCancelled(String kind) throws Exception {
        SplittableRandom master = new SplittableRandom(20261208L + kind.hashCode());
        for (int r = 0; r < ROUNDS; r++) {
            runRound(kind + " round " + r, kind, master.split(), r % 2 == 1);
        }
    }

    private static void runRound(String what, String kind, SplittableRandom rnd, boolean interrupted)
            throws Exception {
        RacingSubmits round = new RacingSubmits(IDS, true);
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
        threads.forEach(Thread::start);
        long cut = (long) (IDS * (0.1 + 0.5 * rnd.nextDouble()));
        while (round.nextId.get() < cut) {
            Thread.onSpinWait();
        }
        Thread closer = new Thread(() -> {
            if (interrupted) {
                Thread.currentThread().interrupt();   // close's wait answers with shutdownNow
            }
            try {
                ((AutoCloseable) round.pool).close();
            } catch (Throwable t) {
                round.unexpected.compareAndSet(null, t);
            }
        }, "closer");
        closer.start();
        closer.join(TimeUnit.SECONDS.toMillis(120));
        assertThat(closer.isAlive()).as("%s: close() returned", what).isFalse();
        assertThat(round.pool.isTerminated()).as("%s: terminated once close() returned", what).isTrue();
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("%s: %s finished", what, t.getName()).isFalse();
        }
        assertThat(round.unexpected.get()).as("%s: nothing unexpected", what).isNull();
        for (int id = 0; id < IDS; id++) {
            int runs = round.runs.get(id);
            assertThat(runs).as("%s: id %d ran at most once", what, id).isLessThanOrEqualTo(1);
            if (round.refused.get(id) == 1) {
                assertThat(runs).as("%s: id %d was refused but ran", what, id).isZero();
            }
            Future<Integer> f = round.futures.get(id);
            if (f == null) {
                continue;
            }
            if (!f.isDone()) {
                throw new AssertionError(what + " (interrupted close: " + interrupted + "): id " + id + " ran " + runs
                        + " times, its future " + f + " is not done");
            }
            if (f.isCancelled()) {
                assertThat(runs).as("%s: id %d cancelled, and ran", what, id).isLessThanOrEqualTo(1);
            } else {
                assertThat(runs).as("%s: id %d's future done, its task ran once", what, id).isEqualTo(1);
                try {
                    assertThat(f.get()).isEqualTo(id);
                } catch (CancellationException | ExecutionException e) {
                    throw new AssertionError(what + ": id " + id, e);
                }
            }
        }
    }
}
