/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Session-31 review of the release count ({@link Message.Compute#releases}): a worker holds each
 * task back until it has handled the {@link Message.ReleaseKey}s the scheduler counted before it,
 * so every release the scheduler counts must reach the worker, or every later task there waits
 * for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReleaseCountRegressionTest {

    /**
     * A task's function whose serialisation throws an unchecked exception (a captured collection
     * modified meanwhile, say) must fail that task alone: thrown out of the batch's sender, it
     * took the whole batch with it, the task itself (which then never ran nor failed) and a
     * release counted before it, so that the worker held back every later task for good.
     */
    @Test
    void aFunctionThatThrowsWhenSerialisedLosesNeitherItsTaskNorTheReleasesBatchedWithIt() throws Exception {
        Batching t = new Batching();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), t);
        t.realWorker.scheduler = s;
        try {
            CompletableFuture<Object> a = s.submit(List.of(TaskSpec.builder("a", args -> 1).build())).get(0);
            t.flushNow();
            assertThat(a.get(30, TimeUnit.SECONDS)).isEqualTo(1);

            s.releaseFuture("a");             // a ReleaseKey for worker 0, counted, queued
            Unwritable capture = new Unwritable();
            CompletableFuture<Object> bad = s.submit(List.of(TaskSpec.builder("bad", args -> capture.hashCode())
                    .build())).get(0);
            s.stealEvents();                  // a barrier: both are queued in one batch
            t.flushNow();
            t.flushNow();                     // the retry of bad, once its first attempt failed
            t.flushNow();

            CompletableFuture<Object> c = s.submit(List.of(TaskSpec.builder("c", args -> 3).build())).get(0);
            t.flushNow();
            assertThat(c).as("a later task on the same worker runs").succeedsWithin(10, TimeUnit.SECONDS)
                    .isEqualTo(3);
            assertThatThrownBy(() -> bad.get(10, TimeUnit.SECONDS))
                    .as("the task that cannot travel fails").isInstanceOf(ExecutionException.class)
                    .hasMessageContaining("cannot be sent");
        } finally {
            s.close();
            t.close();
        }
    }

    /**
     * The scheduler sent worker 0 a release of x, then task k (after that one release), then a
     * release of k (a retried submitter's resubmission replaced k, which now runs elsewhere: see
     * GraphScheduler.supersede). Delivered k, then the release of k, then that of x, the worker must
     * end as if they had come in order: k's job dropped by its release, never run and never
     * stored. The release of k let the held-back k go instead (it counted the release, not which
     * one), which then ran and stored the stale value a dependent placed here would read as k's.
     */
    @Test
    void aReleaseThatOvertakesTheTaskItAbandonsStillAbandonsIt() throws Exception {
        try (GatedWorker g = new GatedWorker()) {
            ClusterWorker w = g.worker;
            w.receive(new Message.Compute("k", 1, args -> "stale", List.of(), java.util.Map.of(), 0, 1));
            w.receive(new Message.ReleaseKey("k", 2));
            w.receive(new Message.ReleaseKey("x", 1));
            // a later task, after both releases: one thread, so k, had it been taken, ran first
            w.receive(new Message.Compute("z", 3, args -> "z", List.of(), java.util.Map.of(), 0, 2));
            List<Message.ToScheduler> replies = g.transport.awaitFinished("z");
            assertThat(replies).as("k was released before it could run").noneSatisfy(m -> assertThat(m)
                    .isInstanceOfSatisfying(Message.TaskFinished.class, f -> assertThat(f.key()).isEqualTo("k")));
            assertThat(w.store().contains("k")).as("worker 0 holds no value of the released k").isFalse();
        }
    }

    /**
     * The scheduler released k on worker 0 (release 1: k's attempt failed there), placed k's
     * retry there (after 1 release), then released x (release 2). Delivered x's release, the
     * retry, then k's release, the worker admitted the retry on the count (1 release handled, x's)
     * and then dropped it as a stale job of the released key: the retry never ran nor reported,
     * and k's caller waited for good.
     */
    @Test
    void aTaskAdmittedOnALaterReleaseSurvivesTheEarlierReleaseOfItsKey() throws Exception {
        try (GatedWorker g = new GatedWorker()) {
            ClusterWorker w = g.worker;
            g.hold();                         // holds the one thread: k stays queued while its release arrives
            w.receive(new Message.ReleaseKey("x", 2));
            w.receive(new Message.Compute("k", 2, args -> "retry", List.of(), java.util.Map.of(), 0, 1));
            w.receive(new Message.ReleaseKey("k", 1));
            g.open();
            assertTimeoutPreemptively(Duration.ofSeconds(10), () -> g.transport.awaitFinished("k"),
                    "k's retry never reported");
        }
    }

    /** A release's number crosses the wire with it (else the checks above are lost between JVMs). */
    @Test
    void aReleaseTravelsWithItsNumber() {
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, new Message.ReleaseKey("k", 7), MessageCodec.NONE);
        assertThat(MessageCodec.readBody(new WireReader(out.toByteArray(), 0, out.size()), MessageCodec.NONE))
                .isEqualTo(new Message.ReleaseKey("k", 7));
    }

    /** Captured by a task's function: its serialisation throws, as a collection's does when modified meanwhile. */
    private static final class Unwritable implements Serializable {
        private static final long serialVersionUID = 1L;

        private void writeObject(ObjectOutputStream out) throws IOException {
            throw new ConcurrentModificationException("modified while it was written");
        }
    }

    /**
     * A coordinator transport as the ones between JVMs are built: messages batched per worker and
     * sent in their wire forms on a sender thread, here to one real worker in this JVM (that of a
     * {@link OneRealWorker}, whose reports go to the scheduler and whose fetches fail: it has no
     * peers). Batches leave when the test flushes (as they group up while the sender is busy). Set
     * {@code realWorker.scheduler} before the first submission.
     */
    private static final class Batching extends CoordinatorTransportSupport {
        final ExecutorService sender = Executors.newSingleThreadExecutor();
        final OutboundBatches batches = new OutboundBatches(64, 1 << 20,
                (worker, messages) -> sendWithinFrameLimit(worker, wireForms(worker, messages,
                        v -> ValueCodec.write(v, Integer.MAX_VALUE))), sender);
        final OneRealWorker realWorker = new OneRealWorker(0,
                (key, holder) -> CompletableFuture.failedFuture(new IllegalStateException("no peers")));

        Batching() {
            attachScheduler(m -> realWorker.scheduler.receive(m));
        }

        @Override
        public void toWorker(int worker, Message.ToWorker message) {
            batches.add(worker, message);
        }

        /** Sends what is queued, and waits until the sender has sent it and the scheduler handled the replies. */
        void flushNow() throws Exception {
            realWorker.scheduler.stealEvents();
            batches.flush();
            sender.submit(() -> { }).get(30, TimeUnit.SECONDS);
            realWorker.scheduler.stealEvents();
        }

        /** Delivers on the sender thread, straight to the real worker, as a frame read off the wire. */
        @Override
        protected void sendFrame(int worker, List<Object> bodies) {
            for (Object body : bodies) {
                if (body instanceof WireMessage.Compute c) {
                    TaskFunction<?> f;
                    try {
                        f = (TaskFunction<?>) ValueCodec.read(c.function(), info -> ObjectInputFilter.Status.ALLOWED);
                    } catch (InvalidClassException e) {
                        throw new AssertionError(e);
                    }
                    realWorker.real.receive(new Message.Compute(c.key(), c.attempt(), f, c.dependencies(), c.holders(),
                            c.priority(), c.releases()));
                } else {
                    realWorker.real.receive((Message.ToWorker) body);
                }
            }
        }

        @Override
        public void workerLost(int worker) {
        }

        @Override
        public void close() {
            super.close();
            realWorker.close();
            sender.shutdownNow();
        }
    }
}
