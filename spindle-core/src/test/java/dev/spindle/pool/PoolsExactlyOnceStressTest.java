package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * W1 (no lost task) and W2 (no double execution) for every pool kind: random task trees
 * submitted from workers (with random priority and worker hints) plus several external
 * submitters, with shutdown or shutdownNow at a random moment. Afterwards each accepted id must
 * have run exactly once or (after shutdownNow) been returned exactly once, and each rejected
 * id never run. The work-stealing pool, whose paths (deques, overflow to the injector, stealing)
 * have the most to get wrong, runs the longest: at least 10^7 tasks, with random deque sizes.
 */
class PoolsExactlyOnceStressTest {

    /** How much each kind runs: rounds, ids per round, and the least accepted and run in all. */
    record Plan(int rounds, int idsPerRound, long minAccepted, long minRan, int shutdownNowEvery) {
        static Plan of(PoolKind kind) {
            return kind == PoolKind.STEALING
                    ? new Plan(24, 520_000, 10_000_000L, 10_000_000L, 4)
                    : new Plan(10, 160_000, 1_000_000L, 600_000L, 2);
        }
    }

    static final class Round {
        final int ids;
        final AtomicIntegerArray runs;
        final AtomicIntegerArray accepted;
        final AtomicIntegerArray returned;
        final AtomicLong nextId = new AtomicLong();
        volatile PoolCore pool;

        Round(int ids) {
            this.ids = ids;
            runs = new AtomicIntegerArray(ids);
            accepted = new AtomicIntegerArray(ids);
            returned = new AtomicIntegerArray(ids);
        }

        int claimId() {
            long id = nextId.getAndIncrement();
            return id < ids ? (int) id : -1;
        }
    }

    static Hints randomHints(SplittableRandom rnd) {
        Hints h = Hints.ofPriority(rnd.nextInt(3) - 1);
        return rnd.nextBoolean() ? h.withWorkerIndex(rnd.nextInt(8)) : h;
    }

    /** Counts itself and submits a random number of children (mean 1.5) while ids last. */
    record Node(Round round, int id, long seed) implements Runnable {
        @Override
        public void run() {
            round.runs.incrementAndGet(id);
            SplittableRandom rnd = new SplittableRandom(seed);
            int children = rnd.nextInt(4);
            for (int c = 0; c < children; c++) {
                int child = round.claimId();
                if (child < 0) {
                    return;
                }
                Node n = new Node(round, child, rnd.nextLong());
                try {
                    if (rnd.nextBoolean()) {
                        round.pool.execute(n);
                    } else {
                        round.pool.execute(n, randomHints(rnd));
                    }
                    round.accepted.set(child, 1);
                } catch (RejectedExecutionException e) {
                    // rejected: must never run
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everyAcceptedTaskRunsExactlyOnceOrIsReturned(PoolKind kind) throws Exception {
        SplittableRandom master = new SplittableRandom(Long.getLong("spindle.stress.seed", 20261126L) + kind.ordinal());
        Plan plan = Plan.of(kind);
        long ran = 0;
        long accepted = 0;
        // Each round stops submitting at a random point and shuts down while its task trees
        // still grow, so how many tasks a round runs depends on the machine's timing: rounds go
        // on past the plan (up to three times it) until the volume below has been reached.
        for (int r = 0; r < plan.rounds()
                || (r < 3 * plan.rounds() && (ran < plan.minRan() || accepted < plan.minAccepted())); r++) {
            long[] counts = runRound(kind, plan, master.split(), r);
            ran += counts[0];
            accepted += counts[1];
        }
        assertThat(accepted).as("tasks accepted over all rounds").isGreaterThanOrEqualTo(plan.minAccepted());
        assertThat(ran).as("tasks run over all rounds").isGreaterThanOrEqualTo(plan.minRan());
    }

    private long[] runRound(PoolKind kind, Plan plan, SplittableRandom rnd, int roundNo) throws Exception {
        Round round = new Round(plan.idsPerRound());
        int workers = 1 + rnd.nextInt(4);
        PoolBuilder<?> b = kind.builder().workers(workers).name(kind + "-stress-" + roundNo);
        if (b instanceof WorkStealingPool.Builder ws) {
            ws.localQueueCapacity(1 << (2 + rnd.nextInt(7)));  // small deques overflow often
        }
        round.pool = kind.build(b);
        boolean now = roundNo % plan.shutdownNowEvery() == plan.shutdownNowEvery() - 1;
        int submitters = 2 + rnd.nextInt(2);
        Thread[] threads = new Thread[submitters];
        for (int s = 0; s < submitters; s++) {
            long seed = rnd.nextLong();
            threads[s] = new Thread(() -> {
                SplittableRandom local = new SplittableRandom(seed);
                for (int id; (id = round.claimId()) >= 0; ) {
                    try {
                        round.pool.execute(new Node(round, id, local.nextLong()), randomHints(local));
                        round.accepted.set(id, 1);
                    } catch (RejectedExecutionException e) {
                        return;                // shut down: leave the remaining ids to the trees
                    }
                }
            }, "submitter-" + s);
            threads[s].start();
        }
        long cut = (long) (plan.idsPerRound() * (0.3 + 0.7 * rnd.nextDouble()));
        while (round.nextId.get() < cut) {
            Thread.onSpinWait();
        }
        List<Runnable> notRun = List.of();
        if (now) {
            notRun = round.pool.shutdownNow();
        } else {
            round.pool.shutdown();
        }
        for (Thread t : threads) {
            t.join();
        }
        assertThat(round.pool.awaitTermination(60, TimeUnit.SECONDS))
                .as("%s round %d terminated", kind, roundNo).isTrue();
        for (Runnable r : notRun) {
            Node n = (Node) r;
            assertThat(round.returned.getAndIncrement(n.id())).as("id %d returned twice", n.id()).isZero();
        }
        long ran = 0;
        long accepted = 0;
        for (int id = 0; id < plan.idsPerRound(); id++) {
            int runs = round.runs.get(id);
            ran += runs;
            int ret = round.returned.get(id);
            if (round.accepted.get(id) == 1) {
                accepted++;
                if (runs + ret != 1) {
                    throw new AssertionError(kind + " round " + roundNo + " id " + id + ": ran " + runs
                            + " times, returned " + ret + " times (shutdownNow=" + now + ")");
                }
            } else if (runs != 0 || ret != 0) {
                throw new AssertionError(kind + " round " + roundNo + " id " + id
                        + " was rejected or never submitted but ran " + runs + " times, returned " + ret);
            }
        }
        return new long[] {ran, accepted};
    }
}
