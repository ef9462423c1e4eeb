package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import dev.spindle.Task;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link ComputeTask} given to a {@link PinnedPool} runs on the worker it went to, as every
 * task of that pool does ("only that worker ever runs it"), whoever joins it. A worker of a
 * {@link WorkStealingPool} built without spare workers ran a task it joined inline "wherever it
 * is": one pinned to a busy worker ran on the work-stealing pool's thread instead.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PinnedComputeTaskJoinTest {

    /** Returns the thread it ran on. */
    static final class WhereItRan extends ComputeTask<Thread> {
        @Override
        protected Thread compute() {
            return Thread.currentThread();
        }
    }

    @Test
    void aPinnedComputeTaskJoinedByAWorkerOfAPoolWithoutSparesRunsOnItsOwnWorker() throws Exception {
        joinedFromAPoolWithoutSpares((pool, task) -> pool.execute(task, Hints.DEFAULT.withWorkerIndex(0)));
    }

    /** The same for one given to {@code submit}, which the future it returns runs. */
    @Test
    void aSubmittedComputeTaskJoinedByAWorkerOfAPoolWithoutSparesRunsOnItsOwnWorker() throws Exception {
        joinedFromAPoolWithoutSpares(PinnedPool::submit);
    }

    private static void joinedFromAPoolWithoutSpares(BiConsumer<PinnedPool, WhereItRan> give) throws Exception {
        try (PinnedPool pinned = PinnedPool.builder().workers(1).name("pinned").build();
             WorkStealingPool stealing = WorkStealingPool.builder().workers(1).maxSpareWorkers(0)
                     .name("stealing").build()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Thread> pinnedWorker = new AtomicReference<>();
            CountDownLatch busy = new CountDownLatch(1);
            pinned.execute(() -> {             // holds worker 0, so the task below waits in its queue
                pinnedWorker.set(Thread.currentThread());
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(busy.await(20, TimeUnit.SECONDS)).isTrue();
            WhereItRan task = new WhereItRan();
            give.accept(pinned, task);

            AtomicReference<Thread> joinerThread = new AtomicReference<>();
            Task<Thread> joiner = stealing.spawn(() -> {
                joinerThread.set(Thread.currentThread());
                return task.join();
            });
            // Wait until the joiner has either finished (it ran the task itself) or waits in
            // its join (it left the task to its worker); only then free the pinned worker.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!joiner.isDone() && System.nanoTime() - deadline < 0L) {
                Thread t = joinerThread.get();
                if (t != null && (t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING)) {
                    break;
                }
                Thread.sleep(1);
            }
            release.countDown();

            assertThat(joiner.get(20, TimeUnit.SECONDS)).as("the thread the pinned task ran on")
                    .isSameAs(pinnedWorker.get());
            assertThat(task.get(20, TimeUnit.SECONDS)).isSameAs(pinnedWorker.get());
        }
    }
}
