package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * W1 (no lost task) and W2 (no double execution) on the real pool: random spawn trees inside the
 * pool plus several external submitter threads, with shutdown or shutdownNow at a random moment.
 * Every task id is counted when it runs; afterwards each accepted id must have run exactly once
 * (or, after shutdownNow, have been returned exactly once), and each rejected id never.
 */
class ExactlyOnceStressTest {

    static final int ROUNDS = 24;
    static final int IDS_PER_ROUND = 520_000;

    /** One round's bookkeeping: per id, how often it ran, and whether it was accepted. */
    static final class Round {
        final AtomicIntegerArray runs = new AtomicIntegerArray(IDS_PER_ROUND);
        final AtomicIntegerArray accepted = new AtomicIntegerArray(IDS_PER_ROUND);
        final AtomicIntegerArray returned = new AtomicIntegerArray(IDS_PER_ROUND);
        final AtomicLong nextId = new AtomicLong();
        final AtomicLong total = new AtomicLong();
        volatile WorkStealingPool pool;

        int claimId() {
            long id = nextId.getAndIncrement();
            return id < IDS_PER_ROUND ? (int) id : -1;
        }
    }

    /** A task that counts itself and spawns a random number of children while ids last. */
    record Node(Round round, int id, long seed) implements Runnable {
        @Override
        public void run() {
            round.runs.incrementAndGet(id);
            SplittableRandom rnd = new SplittableRandom(seed);
            int children = rnd.nextInt(4);     // mean 1.5: trees grow until ids run out
            for (int c = 0; c < children; c++) {
                int child = round.claimId();
                if (child < 0) {
                    return;
                }
                Node n = new Node(round, child, rnd.nextLong());
                try {
                    round.pool.execute(n);
                    round.accepted.set(child, 1);
                } catch (RejectedExecutionException e) {
                    // rejected: must never run
                }
            }
        }
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void everyAcceptedTaskRunsExactlyOnceOrIsReturned() throws Exception {
        SplittableRandom master = new SplittableRandom(20261125L);
        long ran = 0;
        for (int r = 0; r < ROUNDS; r++) {
            ran += runRound(master.split(), r);
        }
        assertThat(ran).as("tasks run over all rounds").isGreaterThanOrEqualTo(10_000_000L);
    }

    private long runRound(SplittableRandom rnd, int roundNo) throws Exception {
        Round round = new Round();
        int workers = 1 + rnd.nextInt(4);
        round.pool = WorkStealingPool.builder().workers(workers).localQueueCapacity(1 << (2 + rnd.nextInt(7)))
                .name("stress-" + roundNo).build();
        boolean now = roundNo % 4 == 3;
        int submitters = 1 + rnd.nextInt(3);
        Thread[] threads = new Thread[submitters];
        for (int s = 0; s < submitters; s++) {
            long seed = rnd.nextLong();
            threads[s] = new Thread(() -> {
                SplittableRandom local = new SplittableRandom(seed);
                for (int id; (id = round.claimId()) >= 0; ) {
                    try {
                        round.pool.execute(new Node(round, id, local.nextLong()));
                        round.accepted.set(id, 1);
                    } catch (RejectedExecutionException e) {
                        return;                // shut down: leave the remaining ids to the trees
                    }
                }
            }, "submitter-" + s);
            threads[s].start();
        }
        // shut down at a random moment: by progress through the ids
        long cut = (long) (IDS_PER_ROUND * (0.3 + 0.7 * rnd.nextDouble()));
        while (round.nextId.get() < cut && round.nextId.get() < IDS_PER_ROUND) {
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
        assertThat(round.pool.awaitTermination(60, TimeUnit.SECONDS)).as("round %d terminated", roundNo).isTrue();
        for (Runnable r : notRun) {
            Node n = (Node) r;
            assertThat(round.returned.getAndIncrement(n.id())).as("id %d returned twice", n.id()).isZero();
        }
        long ran = 0;
        for (int id = 0; id < IDS_PER_ROUND; id++) {
            int runs = round.runs.get(id);
            ran += runs;
            int ret = round.returned.get(id);
            if (round.accepted.get(id) == 1) {
                if (runs + ret != 1) {
                    throw new AssertionError("round " + roundNo + " id " + id + ": ran " + runs
                            + " times, returned " + ret + " times (shutdownNow=" + now + ")");
                }
            } else if (runs != 0) {
                throw new AssertionError("round " + roundNo + " id " + id + " was rejected or never submitted but ran " + runs + " times");
            }
        }
        return ran;
    }
}
