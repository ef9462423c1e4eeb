package dev.spindle.pool;

/** The three pools that share {@link AbstractPool}, for tests parametrized over them. */
enum PoolKind {
    SHARING, PRIORITY, PINNED;

    PoolBuilder<?> builder() {
        return switch (this) {
            case SHARING -> WorkSharingPool.builder();
            case PRIORITY -> PriorityPool.builder();
            case PINNED -> PinnedPool.builder();
        };
    }

    AbstractPool build(PoolBuilder<?> b) {
        return switch (this) {
            case SHARING -> ((WorkSharingPool.Builder) b).build();
            case PRIORITY -> ((PriorityPool.Builder) b).build();
            case PINNED -> ((PinnedPool.Builder) b).build();
        };
    }

    AbstractPool create(int workers) {
        return build(builder().workers(workers));
    }

    static java.util.List<Thread> threads(AbstractPool pool) {
        java.util.List<Thread> out = new java.util.ArrayList<>();
        for (PoolWorker w : pool.workers) {
            out.add(w.thread);
        }
        return out;
    }
}
