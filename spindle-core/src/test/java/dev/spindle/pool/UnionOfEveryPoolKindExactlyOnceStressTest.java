/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import dev.spindle.Spindle;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No lost task and no task run twice through an owning {@link SchedulerUnion} of one pool of each
 * kind, stopped by {@code shutdown} or {@code shutdownNow} while task trees grow across its
 * members. {@link PoolsExactlyOnceStressTest} races one pool's stop; here the union stops its
 * members one after another while tasks running on a member not yet stopped submit to one that
 * is (which the union or the member must refuse, never accept and drop), tasks on a stopped
 * member submit to one still running, external submitters race both, and some tasks enter a
 * blocking section (a spare of the work-stealing member). Afterwards every id the union accepted
 * ran exactly once or came back exactly once from {@code shutdownNow}, every refused id never
 * ran, and {@link SchedulerUnion#routedCounts()} holds, member by member, exactly the ids that
 * member accepted.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class UnionOfEveryPoolKindExactlyOnceStressTest {

    private static final int ROUNDS = 32;
    private static final int IDS = 60_000;
    private static final int MEMBERS = 4;

    static final class Round {
        final AtomicIntegerArray runs = new AtomicIntegerArray(IDS);
        /** The member that accepted the id, plus one; 0 if refused or never submitted. */
        final AtomicIntegerArray acceptedBy = new AtomicIntegerArray(IDS);
        final AtomicIntegerArray returned = new AtomicIntegerArray(IDS);
        final AtomicLong nextId = new AtomicLong();
        volatile SchedulerUnion union;

        int claimId() {
            long id = nextId.getAndIncrement();
            return id < IDS ? (int) id : -1;
        }

        /** Submits {@code id} to a random member; records which member accepted it. */
        boolean submit(int id, SplittableRandom rnd) {
            int member = rnd.nextInt(MEMBERS);
            Hints h = Hints.ofPriority(rnd.nextInt(3) - 1).withSchedulerIndex(member);
            if (rnd.nextBoolean()) {
                h = h.withWorkerIndex(rnd.nextInt(4));
            }
            try {
                union.execute(new Node(this, id, rnd.nextLong()), h);
            } catch (RejectedExecutionException e) {
                return false;                 // refused: must never run
            }
            acceptedBy.set(id, member + 1);
            return true;
        }
    }

    /** Counts its run and submits up to three children, to random members; one in 64 blocks first. */
    record Node(Round round, int id, long seed) implements Runnable {
        @Override
        public void run() {
            round.runs.incrementAndGet(id);
            SplittableRandom rnd = new SplittableRandom(seed);
            if (rnd.nextInt(64) == 0) {
                Spindle.blocking(Thread::yield);
            }
            for (int c = rnd.nextInt(4); c > 0; c--) {
                int child = round.claimId();
                if (child < 0) {
                    return;
                }
                round.submit(child, rnd);
            }
        }
    }

    @Test
    void everyTaskTheUnionAcceptedRunsOnceOrIsReturnedOnce() throws Exception {
        SplittableRandom master = new SplittableRandom(Long.getLong("spindle.stress.seed", 20261207L));
        long ran = 0;
        long returned = 0;
        for (int r = 0; r < ROUNDS; r++) {
            long[] counts = runRound(master.split(), r, r % 2 == 1);
            ran += counts[0];
            returned += counts[1];
        }
        assertThat(ran).as("tasks run over all rounds").isGreaterThan(ROUNDS * (long) IDS / 4);
        assertThat(returned).as("tasks shutdownNow returned over all rounds").isPositive();
    }

    private static long[] runRound(SplittableRandom rnd, int roundNo, boolean now) throws Exception {
        Round round = new Round();
        String tag = "union-stress-" + roundNo + "-";
        round.union = SchedulerUnion.owning(
                WorkStealingPool.builder().workers(1 + rnd.nextInt(2)).name(tag + "stealing")
                        .localQueueCapacity(1 << (2 + rnd.nextInt(6))).maxSpareWorkers(2).build(),
                WorkSharingPool.builder().workers(1 + rnd.nextInt(2)).name(tag + "sharing").build(),
                PriorityPool.builder().workers(1 + rnd.nextInt(2)).name(tag + "priority").build(),
                PinnedPool.builder().workers(1 + rnd.nextInt(2)).name(tag + "pinned").build());
        Thread[] submitters = new Thread[2];
        for (int s = 0; s < submitters.length; s++) {
            long seed = rnd.nextLong();
            submitters[s] = new Thread(() -> {
                SplittableRandom local = new SplittableRandom(seed);
                for (int id; (id = round.claimId()) >= 0; ) {
                    if (!round.submit(id, local)) {
                        return;               // shut down: the trees take the remaining ids
                    }
                }
            }, tag + "submitter-" + s);
            submitters[s].start();
        }
        long cut = (long) (IDS * (0.2 + 0.6 * rnd.nextDouble()));
        while (round.nextId.get() < cut) {
            Thread.onSpinWait();
        }
        List<Runnable> notRun = List.of();
        if (now) {
            notRun = round.union.shutdownNow();
        } else {
            round.union.shutdown();
        }
        for (Thread t : submitters) {
            t.join();
        }
        assertThat(round.union.awaitTermination(60, TimeUnit.SECONDS)).as("round %d terminated", roundNo).isTrue();
        for (Runnable task : notRun) {
            Node n = (Node) task;
            assertThat(round.returned.getAndIncrement(n.id())).as("round %d: id %d returned twice", roundNo, n.id())
                    .isZero();
        }
        long ran = 0;
        long[] acceptedPerMember = new long[MEMBERS];
        for (int id = 0; id < IDS; id++) {
            int runs = round.runs.get(id);
            int ret = round.returned.get(id);
            int by = round.acceptedBy.get(id);
            ran += runs;
            if (by > 0) {
                acceptedPerMember[by - 1]++;
                if (runs + ret != 1) {
                    throw new AssertionError("round " + roundNo + " id " + id + ", accepted by member " + (by - 1)
                            + ": ran " + runs + " times, returned " + ret + " times (shutdownNow=" + now + ")");
                }
            } else if (runs != 0 || ret != 0) {
                throw new AssertionError("round " + roundNo + " id " + id + " was refused or never submitted but ran "
                        + runs + " times, returned " + ret + " times (shutdownNow=" + now + ")");
            }
        }
        List<Long> routed = round.union.routedCounts();
        for (int m = 0; m < MEMBERS; m++) {
            assertThat(routed.get(m)).as("round %d: routed to member %d", roundNo, m).isEqualTo(acceptedPerMember[m]);
        }
        return new long[] {ran, notRun.size()};
    }
}
