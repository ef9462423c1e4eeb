/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task running on a worker fails because an input it read already fails to be computed again
 * (its last holder was lost): the scheduler fails it at once, but its worker runs on and stores
 * the result. With {@code forgetReleased} the key is forgotten once the client releases it and
 * may be submitted again; when that stale run reports while the new task of the key is assigned
 * to the same worker, the copy was kept there, uncounted, and a dependent of the new task placed
 * there read it as the new value.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ErredRunningDependentRegressionTest {

    /** Holds back the real worker's first report of each matching kind, until the test delivers it. */
    private static final class Holding extends OneRealWorker {
        final List<Message.ToScheduler> held = new ArrayList<>();
        final CountDownLatch staleReported = new CountDownLatch(1);
        private boolean dataAddedHeld;
        private boolean finishedHeld;

        Holding(Fetches fetches) {
            super(0, fetches);
        }

        @Override
        public synchronized void toScheduler(Message.ToScheduler message) {
            if (!dataAddedHeld && message instanceof Message.DataAdded a && a.key().equals("d")) {
                dataAddedHeld = true;         // the copy's report travels while its holder is lost
                held.add(message);
                return;
            }
            if (!finishedHeld && message instanceof Message.TaskFinished f && f.key().equals("t")) {
                finishedHeld = true;
                held.add(message);
                staleReported.countDown();
                return;
            }
            super.toScheduler(message);
        }

        synchronized void deliverHeld() {
            held.forEach(scheduler::receive);
            held.clear();
        }
    }

    @Test
    void aRunFailedForItsInputLeavesNoCopyThatANewTaskOfItsKeyWouldBeTakenFor() throws Exception {
        Holding w = new Holding((key, holder) -> key.equals("d") && holder == 1 ? CompletableFuture.completedFuture(10)
                : key.equals("t") && holder == 2 ? CompletableFuture.completedFuture("fresh")
                : CompletableFuture.failedFuture(new IllegalStateException("no " + key + " at " + holder)));
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).forgetReleased(true).build(), w);
        w.scheduler = s;
        CountDownLatch stale = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch block = new CountDownLatch(1);
        try {
            // d on worker 1; t, on worker 0, reads it and runs until the test lets it end
            s.submit(List.of(TaskSpec.builder("d", args -> 10).restrictions(Restrictions.strict(Set.of(1))).build()));
            w.settle();
            w.finish(1, "d", 10);
            CompletableFuture<Object> first = s.submit(List.of(TaskSpec.builder("t", args -> {
                running.countDown();
                // timed, as block's wait below: the worker pool's starvation watch takes a thread
                // waiting without a time limit, with a task queued behind it, for one waiting for
                // good and starts a spare thread, which ran the task queued behind it early
                stale.await(60, TimeUnit.SECONDS);
                return "stale";
            }).dependsOn("d").restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();

            // worker 1, d's last counted holder, is lost; d cannot be computed again: t fails
            HandDriven.reply(s, new Message.WorkerLost(1));
            s.submit(List.of(TaskSpec.builder("u", args -> 0).dependsOn("d").build()));
            w.settle();
            // completed by the scheduler's notifier thread, which settle() does not wait for
            assertThat(first).failsWithin(Duration.ofSeconds(10));
            s.releaseFuture("t");             // forgotten: the key may be submitted again
            w.settle();

            // worker 0's thread passes from t to "block"; t's run ends and reports meanwhile
            s.submit(List.of(TaskSpec.builder("block", args -> {
                // timed: see t's wait above. Untimed, a slow run (a loaded machine) let the spare
                // thread start the new t behind it, which then could not be stolen ("t moved to worker 2")
                block.await(60, TimeUnit.SECONDS);
                return 0;
            }).restrictions(Restrictions.strict(Set.of(0))).durationHint(Duration.ofSeconds(10)).build()));
            w.settle();
            stale.countDown();
            assertThat(w.staleReported.await(10, TimeUnit.SECONDS)).isTrue();

            // t again, placed on worker 0 before the stale report arrives; then moved to worker 2
            CompletableFuture<Object> again = s.submit(List.of(TaskSpec.builder("t", args -> "fresh")
                    .restrictions(Restrictions.loose(Set.of(0))).durationHint(Duration.ofSeconds(1)).build())).get(0);
            w.settle();
            w.deliverHeld();
            w.settle();
            assertThat(s.balanceNow()).as("t moved to worker 2").hasSize(1);
            w.settle();
            w.finish(2, "t", "fresh");
            assertThat(again.get(10, TimeUnit.SECONDS)).isEqualTo("fresh");

            CompletableFuture<Object> v = s.submit(List.of(TaskSpec.builder("v", args -> args.get(0)).dependsOn("t")
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            block.countDown();
            assertThat(v.get(10, TimeUnit.SECONDS)).as("v's input is the new t").isEqualTo("fresh");
        } finally {
            stale.countDown();
            block.countDown();
            s.close();
            w.close();
        }
    }
}
