package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The pool's own counts once it has stopped, after {@code execute} from outside threads and from
 * running tasks raced {@code shutdown()} or {@code shutdownNow()}, on every pool kind: the
 * completed tasks are exactly those that ran, the rejected ones exactly the
 * {@link RejectedExecutionException}s thrown, nothing is counted as queued, and no worker as
 * live, parked or searching. A count left wrong by a task accepted or refused at the edge stays
 * wrong for good, since nothing runs any more to correct it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class CountsAfterAStopMatchWhatRanTest {

    private static final int ROUNDS = 16;
    private static final long TASKS = 60_000;

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void theCountsOfAStoppedPoolAreExact(PoolKind kind) throws Exception {
        SplittableRandom master = new SplittableRandom(20261209L + kind.ordinal());
        for (int r = 0; r < ROUNDS; r++) {
            runRound(kind + " round " + r, kind, master.split(), r % 2 == 1);
        }
    }

    private static void runRound(String what, PoolKind kind, SplittableRandom rnd, boolean now) throws Exception {
        PoolBuilder<?> b = kind.builder().workers(1 + rnd.nextInt(3));
        if (b instanceof WorkStealingPool.Builder ws) {
            ws.localQueueCapacity(1 << (2 + rnd.nextInt(6)));
        }
        PoolCore pool = kind.build(b);
        LongAdder ran = new LongAdder();
        LongAdder refused = new LongAdder();
        AtomicLong budget = new AtomicLong(TASKS);
        class Node implements Runnable {
            final long seed;

            Node(long seed) {
                this.seed = seed;
            }

            @Override
            public void run() {
                ran.increment();
                SplittableRandom local = new SplittableRandom(seed);
                for (int c = local.nextInt(3); c > 0 && budget.getAndDecrement() > 0; c--) {
                    try {
                        pool.execute(new Node(local.nextLong()));
                    } catch (RejectedExecutionException e) {
                        refused.increment();
                    }
                }
            }
        }
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            long seed = rnd.nextLong();
            threads.add(new Thread(() -> {
                SplittableRandom local = new SplittableRandom(seed);
                while (budget.getAndDecrement() > 0) {
                    try {
                        pool.execute(new Node(local.nextLong()));
                    } catch (RejectedExecutionException e) {
                        refused.increment();
                        return;
                    }
                }
            }, "submitter-" + s));
        }
        threads.forEach(Thread::start);
        long cut = (long) (TASKS * (0.2 + 0.6 * rnd.nextDouble()));
        while (TASKS - budget.get() < cut) {
            Thread.onSpinWait();
        }
        int returned = now ? pool.shutdownNow().size() : 0;
        if (!now) {
            pool.shutdown();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(t.isAlive()).as("%s: %s finished", what, t.getName()).isFalse();
        }
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).as("%s: terminated", what).isTrue();
        SchedulerStats s = pool.stats();
        assertThat(s.completed()).as("%s (shutdownNow: %s, %d returned): completed, %s", what, now, returned, s)
                .isEqualTo(ran.sum());
        assertThat(s.rejected()).as("%s: rejected, %s", what, s).isEqualTo(refused.sum());
        assertThat(s.queued()).as("%s: queued, %s", what, s).isZero();
        assertThat(s.liveWorkers()).as("%s: live workers, %s", what, s).isZero();
        assertThat(s.parkedWorkers()).as("%s: parked workers, %s", what, s).isZero();
        assertThat(s.searchingWorkers()).as("%s: searching workers, %s", what, s).isZero();
        assertThat(s.blockedWorkers()).as("%s: blocked workers, %s", what, s).isZero();
    }
}
