package dev.spindle.queue;

import static dev.spindle.testkit.Threads.runAll;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * Small owner-versus-thieves programs with their own exactly-once checks, written against
 * {@link Target} so that they can run on the real deque and on {@link MutatedDeque}. Lincheck's
 * {@code runConcurrentTest} explores their interleavings; the checks use plain Java so that the
 * model checker has little besides the deque to instrument.
 */
final class DequeScenarios {

    private DequeScenarios() {}

    /** The operations the scenarios need. */
    interface Target {
        void push(int value);

        /** Owner pop: the value, or 0 if nothing was taken. */
        int pop();

        /** One steal attempt that retries lost races: the value, or 0 if the deque was empty. */
        int steal();

        /** Batch steal into {@code dest}: the oldest value taken, or 0 if nothing was taken. */
        int stealBatch(WorkStealingDeque<Integer> dest, int limit);
    }

    static Target real(int initialCapacity) {
        return real(initialCapacity, WorkStealingDeque.RENEW_INTERVAL);
    }

    /** As {@link #real(int)}, renewing the ring every {@code renewInterval} fresh reads of top. */
    static Target real(int initialCapacity, int renewInterval) {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(initialCapacity, 64, renewInterval);
        return new Target() {
            @Override
            public void push(int value) {
                d.push(value);
            }

            @Override
            public int pop() {
                Integer x = d.pop();
                return x == null ? 0 : x;
            }

            @Override
            public int steal() {
                for (;;) {
                    StealResult<Integer> r = d.steal();
                    if (!r.isRetry()) {
                        return r.isSuccess() ? r.value() : 0;
                    }
                }
            }

            @Override
            public int stealBatch(WorkStealingDeque<Integer> dest, int limit) {
                Integer x = d.stealBatchOrNull(dest, limit);
                return x == null ? 0 : x;
            }
        };
    }

    /** The copy with a clearing lag of 2, so that these small scenarios reach the clearing. */
    static Target mutated(MutatedDeque.Mutation mutation, int initialCapacity) {
        MutatedDeque<Integer> d = new MutatedDeque<>(mutation, initialCapacity, 2);
        return new Target() {
            @Override
            public void push(int value) {
                d.push(value);
            }

            @Override
            public int pop() {
                Integer x = d.pop();
                return x == null ? 0 : x;
            }

            @Override
            public int steal() {
                Integer x = d.stealOrNull();
                return x == null ? 0 : x;
            }

            @Override
            public int stealBatch(WorkStealingDeque<Integer> dest, int limit) {
                Integer x = d.stealBatchOrNull(dest, limit);
                return x == null ? 0 : x;
            }
        };
    }

    /** Values taken by one thread, in the order it took them. */
    private static final class Log {
        final int[] values = new int[16];
        int n;

        void add(int v) {
            if (v != 0) {
                values[n++] = v;
            }
        }

        int[] toArray() {
            return Arrays.copyOf(values, n);
        }
    }

    private static void fail(String message, Log... logs) {
        StringBuilder sb = new StringBuilder(message);
        for (Log l : logs) {
            sb.append(' ').append(Arrays.toString(l.toArray()));
        }
        throw new AssertionError(sb.toString());
    }

    /**
     * Values 1..4 are queued. The owner pushes 5 (growing the ring when it starts at capacity 4)
     * and pops four times; one thief batch-steals (limit 3) and then empties its destination
     * oldest first; another thief steals twice. Afterwards the test thread pops what is left.
     *
     * <p>Checks: every value 1..5 is taken exactly once; the owner sees decreasing values, the
     * single thief increasing ones, and the batch a run of consecutive values of at most 3.
     */
    static void ownerVersusBatchAndSingleThief(Supplier<Target> factory) {
        Target d = factory.get();
        for (int v = 1; v <= 4; v++) {
            d.push(v);
        }
        Log owner = new Log();
        Log batch = new Log();
        Log thief = new Log();
        Log rest = new Log();
        Thread o = new Thread(() -> {
            d.push(5);
            for (int k = 0; k < 4; k++) {
                owner.add(d.pop());
            }
        });
        Thread b = new Thread(() -> {
            WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 8);
            batch.add(d.stealBatch(dest, 3));
            for (Integer x; (x = dest.stealOrNull()) != null; ) {
                batch.add(x);
            }
        });
        Thread s = new Thread(() -> {
            thief.add(d.steal());
            thief.add(d.steal());
        });
        runAll(o, b, s);
        for (int x; (x = d.pop()) != 0; ) {
            rest.add(x);
        }

        checkExactlyOnce(5, owner, batch, thief, rest);
        checkMonotone("owner pops", owner, -1);
        checkMonotone("thief steals", thief, +1);
        if (batch.n > 3) {
            fail("batch larger than its limit", batch);
        }
        for (int i = 1; i < batch.n; i++) {
            if (batch.values[i] != batch.values[i - 1] + 1) {
                fail("batch is not a run of consecutive oldest values", batch);
            }
        }
    }

    /**
     * Values 1..3 are queued in a ring of capacity 4. The owner pushes 4, 5, 6 (growing the
     * ring while thieves read it) and pops twice; two thieves each batch-steal (limit 4) once
     * and then pop their destination dry.
     */
    static void growWhileTwoBatchThieves(Supplier<Target> factory) {
        Target d = factory.get();
        for (int v = 1; v <= 3; v++) {
            d.push(v);
        }
        Log owner = new Log();
        Log b1 = new Log();
        Log b2 = new Log();
        Log rest = new Log();
        Thread o = new Thread(() -> {
            d.push(4);
            d.push(5);
            owner.add(d.pop());
            d.push(6);
            owner.add(d.pop());
        });
        Thread t1 = batchThief(d, b1);
        Thread t2 = batchThief(d, b2);
        runAll(o, t1, t2);
        for (int x; (x = d.pop()) != 0; ) {
            rest.add(x);
        }
        checkExactlyOnce(6, owner, b1, b2, rest);
    }

    /**
     * Values 1..4 fill a ring of capacity 4. The owner pushes 5 and 6 (into the slots of 1 and 2
     * once thieves have taken them, else into a grown ring) and pops three times; two thieves
     * steal twice each. Afterwards the test thread pops what is left.
     *
     * <p>Checks: every value 1..6 is taken exactly once, the owner's in decreasing order and each
     * thief's in increasing order.
     */
    static void wrapAroundWhileThievesSteal(Supplier<Target> factory) {
        Target d = factory.get();
        for (int v = 1; v <= 4; v++) {
            d.push(v);
        }
        Log owner = new Log();
        Log s1 = new Log();
        Log s2 = new Log();
        Log rest = new Log();
        Thread o = new Thread(() -> {
            d.push(5);
            d.push(6);
            for (int k = 0; k < 3; k++) {
                owner.add(d.pop());
            }
        });
        Thread t1 = new Thread(() -> {
            s1.add(d.steal());
            s1.add(d.steal());
        });
        Thread t2 = new Thread(() -> {
            s2.add(d.steal());
            s2.add(d.steal());
        });
        runAll(o, t1, t2);
        for (int x; (x = d.pop()) != 0; ) {
            rest.add(x);
        }
        checkExactlyOnce(6, owner, s1, s2, rest);
        checkMonotone("owner pops", owner, -1);
        checkMonotone("first thief's steals", s1, +1);
        checkMonotone("second thief's steals", s2, +1);
    }

    private static Thread batchThief(Target d, Log log) {
        return new Thread(() -> {
            WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 8);
            log.add(d.stealBatch(dest, 4));
            for (Integer x; (x = dest.pop()) != null; ) {
                log.add(x);
            }
        });
    }

    private static void checkExactlyOnce(int max, Log... logs) {
        int[] seen = new int[max + 1];
        for (Log l : logs) {
            for (int i = 0; i < l.n; i++) {
                int v = l.values[i];
                if (v < 1 || v > max) {
                    fail("unexpected value " + v, logs);
                }
                seen[v]++;
            }
        }
        for (int v = 1; v <= max; v++) {
            if (seen[v] != 1) {
                fail("value " + v + " taken " + seen[v] + " times; owner, thieves..., rest:", logs);
            }
        }
    }

    private static void checkMonotone(String what, Log log, int direction) {
        for (int i = 1; i < log.n; i++) {
            if (Integer.signum(log.values[i] - log.values[i - 1]) != direction) {
                fail(what + " out of order", log);
            }
        }
    }
}
