package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The yield queue ({@code AsyncWorker.yielded}, an {@code OwnerFifo}): a task that yields goes
 * to its worker's yield queue, which takes turns with the wake channel (WORK_STEALING) or gets a
 * turn after each pick from the hot queue (HYBRID). So on one worker, wake-ups that never stop
 * coming delay a yielding task by a bounded number of polls. Counted in polls, not time.
 *
 * <p>The wake-ups come from a ring of sleepers, each of which wakes the next two whenever it is
 * polled: the second wake of a poll moves the first out of the LIFO slot into the wake channel,
 * so the wake channel never runs empty. Shown to fail (the yielder never runs again) when the
 * wake channel is always drawn before the yield queue.
 */
class YieldQueueTest {

    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aYieldingTaskIsNotStarvedByWakeUpsThatNeverStop(AsyncPolicy policy) {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int sleepers = 16;
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).build()) {
                AtomicReferenceArray<Waker> wakers = new AtomicReferenceArray<>(sleepers);
                AtomicInteger sleeperPolls = new AtomicInteger();
                AtomicBoolean stop = new AtomicBoolean();
                for (int i = 0; i < sleepers; i++) {
                    int k = i;
                    rt.spawn(cx -> {                   // pending until the runtime closes
                        sleeperPolls.incrementAndGet();
                        wakers.set(k, cx.waker());
                        for (int d = 1; d <= 2 && !stop.get(); d++) {
                            Waker w = wakers.get((k + d) % sleepers);
                            if (w != null) {
                                w.wake();
                            }
                        }
                        return Poll.pending();
                    });
                }
                while (sleeperPolls.get() < 10 * sleepers) {
                    Thread.onSpinWait();           // the ring is waking itself
                }
                int yields = 20_000;
                int[] before = new int[1];
                CompletableFuture<Integer> sleeperPollsMeanwhile = new CompletableFuture<>();
                CompletableFuture<Integer> yielder = new CompletableFuture<>();
                rt.spawn(new AsyncTask<Void>() {
                    int n;

                    @Override
                    public Poll<Void> poll(Context cx) {
                        if (n == 0) {
                            before[0] = sleeperPolls.get();
                        }
                        if (++n > yields) {
                            sleeperPollsMeanwhile.complete(sleeperPolls.get() - before[0]);
                            yielder.complete(n - 1);
                            return Poll.ready(null);
                        }
                        cx.waker().wake();
                        return Poll.pending();
                    }
                });
                try {
                    assertThat(yielder.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(yields);
                    // Between two polls of the yielder: one pick from the wake channel and at
                    // most AsyncWorker.LIFO_MAX runs from the LIFO slot (WORK_STEALING), or one
                    // pick from the hot queue (HYBRID).
                    assertThat(sleeperPollsMeanwhile.get())
                            .as("sleeper polls while the yielder made %d yields", yields)
                            .isLessThanOrEqualTo((1 + AsyncWorker.LIFO_MAX) * yields + sleepers);
                } finally {
                    stop.set(true);
                }
            }
        });
    }

    /**
     * A worker takes a run of cells from the injector at once (so that tasks allocated together
     * run on one worker), but starts them at the pace it started single cells: one where it used
     * to take one from the injector. So a task that yields resumes before the rest of the run
     * starts. Pushed into the local deque, the run was popped ahead of the yield queue and all
     * 100 tasks started before the first resumed (a FIFO semaphore under contention lost three
     * quarters of its throughput that way).
     */
    @ParameterizedTest
    @EnumSource(AsyncPolicy.class)
    void aRunTakenFromTheInjectorDoesNotStartAheadOfAYieldedTask(AsyncPolicy policy) {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).policy(policy).build()) {
                CountDownLatch gateEntered = new CountDownLatch(1);
                CountDownLatch gate = new CountDownLatch(1);
                rt.spawn(cx -> {
                    gateEntered.countDown();
                    try {
                        gate.await();              // holds the only worker while the run queues
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Poll.ready(null);
                });
                assertThat(gateEntered.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
                List<String> events = new CopyOnWriteArrayList<>();
                int tasks = 100;
                JoinHandle<?>[] handles = new JoinHandle<?>[tasks];
                for (int i = 0; i < tasks; i++) {
                    int k = i;
                    handles[i] = rt.spawn(new AsyncTask<Void>() {
                        boolean yielded;

                        @Override
                        public Poll<Void> poll(Context cx) {
                            if (!yielded) {
                                events.add("start " + k);
                                yielded = true;
                                cx.waker().wake();
                                return Poll.pending();
                            }
                            events.add("resume " + k);
                            return Poll.ready(null);
                        }
                    });
                }
                gate.countDown();
                for (JoinHandle<?> h : handles) {
                    h.get(WAIT_S, TimeUnit.SECONDS);
                }
                int resumed = events.indexOf("resume 0");
                long startedBefore = events.subList(0, resumed).stream().filter(e -> e.startsWith("start")).count();
                assertThat(startedBefore).as("tasks started before task 0 resumed: %s", events.subList(0, resumed))
                        .isLessThanOrEqualTo(3);
            }
        });
    }
}
