package dev.spindle.pool;

import java.util.ArrayList;
import java.util.List;

/** Every pool kind, for tests parametrized over them; all share {@link PoolCore}'s lifecycle. */
enum PoolKind {
    STEALING, SHARING, PRIORITY, PINNED;

    PoolBuilder<?> builder() {
        return switch (this) {
            case STEALING -> WorkStealingPool.builder();
            case SHARING -> WorkSharingPool.builder();
            case PRIORITY -> PriorityPool.builder();
            case PINNED -> PinnedPool.builder();
        };
    }

    PoolCore build(PoolBuilder<?> b) {
        return switch (this) {
            case STEALING -> ((WorkStealingPool.Builder) b).build();
            case SHARING -> ((WorkSharingPool.Builder) b).build();
            case PRIORITY -> ((PriorityPool.Builder) b).build();
            case PINNED -> ((PinnedPool.Builder) b).build();
        };
    }

    PoolCore create(int workers) {
        return build(builder().workers(workers));
    }

    /** The threads of the pool's workers (spare workers of a work-stealing pool included). */
    static List<Thread> threads(PoolCore pool) {
        List<Thread> out = new ArrayList<>();
        for (BaseWorker w : pool.workerSlots()) {
            if (w != null && w.thread != null) {
                out.add(w.thread);
            }
        }
        return out;
    }

    /** Tasks run so far, from the pool's own statistics. */
    static long executed(PoolCore pool) {
        return pool.stats().completed();
    }

    /** Tasks queued now, from the pool's own statistics. */
    static long queued(PoolCore pool) {
        return pool.stats().queued();
    }

    /** Parks so far, from the pool's own statistics. */
    static long parks(PoolCore pool) {
        return pool.stats().parks();
    }

    /** The number of workers the pool was built with. */
    static int workers(PoolCore pool) {
        return pool instanceof WorkStealingPool ws ? ws.parallelism() : ((AbstractPool) pool).workers();
    }

    /** The pool's statistics, for failure messages. */
    static Object stats(PoolCore pool) {
        return pool.stats();
    }
}
