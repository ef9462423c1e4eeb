/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

class ClusterResubmissionRegressionTest {

    /**
     * A retried task submits its nested key again while the earlier attempt's run of that key is
     * still executing on the same worker. The replacement finishes first; the abandoned run ends
     * later and must not put its value over the replacement's in the worker's store, where a
     * dependent placed there would read it.
     */
    @Test
    void abandonedRunDoesNotOverwriteItsReplacementsValue() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(4).retries(1).build()) {
                Client client = cluster.client();
                AtomicInteger attempts = new AtomicInteger();
                CountDownLatch oldStarted = new CountDownLatch(1);
                CountDownLatch releaseOld = new CountDownLatch(1);
                CompletableFuture<ClusterFuture<String>> replacement = new CompletableFuture<>();
                ClusterFuture<String> outer = client.submit("outer", args -> {
                    if (attempts.incrementAndGet() == 1) {
                        client.submit("outer-inner", a -> {
                            oldStarted.countDown();
                            releaseOld.await(30, SECONDS);
                            return "old";
                        });
                        oldStarted.await(30, SECONDS);
                        throw new IOException("fails while its nested task runs");
                    }
                    ClusterFuture<String> inner = client.submit("outer-inner", a -> "new");
                    String v = inner.get(30, SECONDS);
                    replacement.complete(inner);
                    return v;
                });
                assertThat(outer.get(30, SECONDS)).isEqualTo("new");
                releaseOld.countDown();
                // outer twice, the abandoned inner and its replacement: the abandoned run has ended
                while (cluster.stats().workers().get(0).executed() < 4) {
                    Thread.sleep(5);
                }
                ClusterFuture<String> reader = client.submit("reader", args -> (String) args.get(0),
                        replacement.get(30, SECONDS));
                assertThat(reader.get(30, SECONDS)).as("the value a dependent reads").isEqualTo("new");
            }
        });
    }

    /**
     * close() from another thread that races one from a transport callback (which returns at
     * once) returned before the close had run: the futures it fails were still pending.
     */
    @Test
    void closeRacingACloseFromACallbackWaitsForIt() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            CountDownLatch closedInCallback = new CountDownLatch(1);
            CountDownLatch callbackMayReturn = new CountDownLatch(1);
            ClusterCoordinator c = startCalling(compute -> compute.key().equals("t"), coordinator -> {
                coordinator.close();
                closedInCallback.countDown();
                callbackMayReturn.await(30, SECONDS);
            });
            // pending (nothing runs the recorded Computes): the close fails it
            ClusterFuture<Integer> pending = c.client().submit("a", args -> 1);
            Thread submitter = submitT(c);
            closedInCallback.await();
            CompletableFuture<Boolean> doneWhenCloseReturned = new CompletableFuture<>();
            startUntilWaiting(() -> {
                c.close();
                doneWhenCloseReturned.complete(pending.isDone());
            });
            callbackMayReturn.countDown();
            assertThat(doneWhenCloseReturned.get(30, SECONDS))
                    .as("the task's future is completed once close() returns").isTrue();
            submitter.join();
        });
    }

    /**
     * A close from a transport callback while another thread's close waits for the scheduler: the
     * callback waited for that close, which waited for the callback's thread.
     */
    @Test
    void closeFromACallbackWhileAnotherCloseWaitsDoesNotHang() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            CountDownLatch inCallback = new CountDownLatch(1);
            CountDownLatch mayClose = new CountDownLatch(1);
            ClusterCoordinator c = startCalling(compute -> true, coordinator -> {
                inCallback.countDown();
                mayClose.await(30, SECONDS);
                coordinator.close();
            });
            Thread submitter = submitT(c);
            inCallback.await();
            Thread closer = startUntilWaiting(c::close);
            mayClose.countDown();
            closer.join();
            submitter.join();
        });
    }

    /**
     * The earlier attempt's run of a nested key, queued on worker 0, is replaced by a resubmission
     * that worker 1 computes. A dependent placed on worker 0 fetches the new value; the abandoned
     * run ends on worker 0 while that fetch travels, and its value must not be what the dependent
     * reads.
     */
    @Test
    void abandonedRunOnAnotherWorkerIsNotReadByADependent() throws Exception {
        Map<String, CompletableFuture<Object>> held = new ConcurrentHashMap<>();   // until the test completes them
        OneRealWorker w = new OneRealWorker(0, (key, holder) -> held.computeIfAbsent(key + "@" + holder,
                k -> new CompletableFuture<>()));
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), w);
        w.scheduler = s;
        w.real.serves(s);                     // as LocalCluster's: a task it runs is the submitter of its nested keys
        try {
            s.submit(List.of(TaskSpec.builder("dep", args -> 5).restrictions(Restrictions.strict(Set.of(1))).build()));
            w.settle();
            w.finish(1, "dep", 5);
            AtomicInteger attempts = new AtomicInteger();
            CompletableFuture<Object> outer = s.submit(List.of(TaskSpec.builder("outer", args -> {
                if (attempts.incrementAndGet() == 1) {
                    // queued on worker 0 while it fetches dep, which the test holds back
                    s.submit(List.of(TaskSpec.builder("outer-inner", a -> "old").dependsOn("dep")
                            .restrictions(Restrictions.strict(Set.of(0))).build()));
                    throw new IOException("fails before its nested task runs");
                }
                s.submit(List.of(TaskSpec.builder("outer-inner", a -> "new")
                        .restrictions(Restrictions.strict(Set.of(1))).build()));
                return "done";
            }).restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            assertThat(outer.get(30, SECONDS)).isEqualTo("done");
            w.settle();
            w.finish(1, "outer-inner", "new");
            CompletableFuture<Object> reader = s.submit(List.of(TaskSpec.builder("reader", args -> args.get(0))
                    .dependsOn("outer-inner").restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            w.settle();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                while (!held.containsKey("outer-inner@1") || !held.containsKey("dep@1")) {
                    Thread.sleep(5);
                }
                held.get("dep@1").complete(5);      // the abandoned run may start now
                // it ends (outer twice, and it), unless its worker was told to drop it
                while (w.real.executed() < 3 && !w.releasedTo(0, "outer-inner")) {
                    Thread.sleep(5);
                }
                w.settle();
                held.get("outer-inner@1").complete("new");
                assertThat(reader.get(30, SECONDS)).as("the value the dependent reads").isEqualTo("new");
            });
        } finally {
            s.close();
            w.close();
        }
    }

    /**
     * A release now makes its worker drop the job of the key (an abandoned attempt's). A stale
     * copy report (a DataAdded of an earlier value of the key, nobody having asked this worker
     * for it) had the scheduler release the key on a worker where the key's current attempt was
     * queued: the job was dropped, never ran nor reported, and its future waited for good.
     */
    @Test
    void aStaleCopyReportDoesNotDropTheCurrentAttemptQueuedOnItsWorker() throws Exception {
        OneRealWorker w = new OneRealWorker(0, (key, holder) -> new CompletableFuture<>());
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), w);
        w.scheduler = s;
        CountDownLatch gate = new CountDownLatch(1);
        try {
            // the real worker has one thread: k waits behind the blocker
            CompletableFuture<Object> blocker = s.submit(List.of(TaskSpec.builder("blocker", args -> {
                gate.await();
                return 0;
            }).restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            CompletableFuture<Object> k = s.submit(List.of(TaskSpec.builder("k", args -> "current")
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            w.settle();
            s.receive(new Message.DataAdded(0, "k", 4));   // a copy of an earlier k, reported late
            w.settle();
            gate.countDown();
            assertThat(blocker.get(30, SECONDS)).isEqualTo(0);
            assertThat(k.get(30, SECONDS)).as("the current attempt of k").isEqualTo("current");
        } finally {
            gate.countDown();
            s.close();
            w.close();
        }
    }

    /** What {@link #startCalling} runs inside the transport's callback. */
    private interface InCallback {
        void run(ClusterCoordinator coordinator) throws InterruptedException;
    }

    /**
     * Starts a coordinator of one worker of one thread over a {@link RecordingTransport} (nothing
     * runs what it records) that, on the first {@link Message.Compute} it is sent that {@code which}
     * accepts, runs {@code callback} inside that {@code toWorker} callback, on the scheduler's
     * thread; an interrupt of the callback ends it, with the thread's interrupt status kept.
     */
    private static ClusterCoordinator startCalling(Predicate<Message.Compute> which, InCallback callback) {
        AtomicReference<ClusterCoordinator> coordinator = new AtomicReference<>();
        AtomicBoolean called = new AtomicBoolean();
        RecordingTransport transport = new RecordingTransport() {
            @Override
            public synchronized void toWorker(int worker, Message.ToWorker message) {
                super.toWorker(worker, message);
                if (message instanceof Message.Compute compute && which.test(compute)
                        && called.compareAndSet(false, true)) {
                    try {
                        callback.run(coordinator.get());
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        ClusterCoordinator c = ClusterCoordinator.start(
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), transport);
        coordinator.set(c);
        return c;
    }

    /** Submits task "t" to {@code c} from a new thread, which it returns started. */
    private static Thread submitT(ClusterCoordinator c) {
        Thread submitter = new Thread(() -> {
            try {
                c.client().submit("t", args -> 1);
            } catch (RuntimeException closed) {
                // the close may come first: either way the submission ends
            }
        });
        submitter.start();
        return submitter;
    }

    /** Runs {@code body} on a new thread, and returns it once it waits (blocked, for a close) or has ended. */
    private static Thread startUntilWaiting(Runnable body) throws InterruptedException {
        Thread t = new Thread(body);
        t.start();
        while (t.getState() != Thread.State.TERMINATED && t.getState() != Thread.State.WAITING) {
            Thread.sleep(1);
        }
        return t;
    }
}
