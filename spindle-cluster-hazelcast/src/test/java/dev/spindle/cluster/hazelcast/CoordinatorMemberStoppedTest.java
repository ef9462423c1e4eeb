/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.RunGate;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A member stopped under Spindle, not by its {@code close()}: another part of the application
 * shuts down or terminates the coordinator's Hazelcast instance, or a worker's. The coordinator's
 * scheduler stayed up behind a dead member: a task in flight was never reported (its future
 * pending until the no-worker wait, here ten minutes, or for good) and {@code submit} went on
 * accepting tasks that could reach no worker. Now the scheduler closes with its member: unfinished
 * futures fail with {@link IllegalStateException} and later submissions are refused. A worker
 * whose member is terminated is lost to the coordinator, and its task runs elsewhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CoordinatorMemberStoppedTest {

    private static final String SECRET = "member-stopped-secret-0123456789";

    @RegisterExtension
    final Cleanup started = new Cleanup();

    /** This run's latches: fresh for each run. */
    private RunGate run;

    @BeforeEach
    void openRun() {
        run = RunGate.open();
    }

    @AfterEach
    void closeRun() {
        run.close();
    }

    private HazelcastCoordinator startCluster(int workers, int[] ports) throws Exception {
        String cluster = "spindle-member-stopped-" + ports[0];
        for (int id = 0; id < workers; id++) {
            started.add(HazelcastWorker.start(settings(cluster, ports[1 + id], ports), id, 1));
        }
        // a wait for a worker so long that only the member's own stop can end the held task's wait
        return started.add(HazelcastCoordinator.start(settings(cluster, ports[0], ports),
                CoordinatorSettings.builder().workers(workers).threadsPerWorker(1).stealing(false)
                        .noWorkerTimeout(Duration.ofMinutes(10)).build(), Duration.ofSeconds(60)));
    }

    private static HazelcastClusterSettings settings(String cluster, int port, int[] ports) {
        return InProcessClusterTest.settings(cluster, SECRET, port, ports).failureSeconds(4).build();
    }

    /** A task that holds its worker's one thread until the run's gate opens. */
    private ClusterFuture<Integer> held(Client client) throws InterruptedException {
        String id = run.id();
        ClusterFuture<Integer> held = client.submit("held", args -> {
            RunGate r = RunGate.of(id);
            r.started().countDown();
            r.gate().await(60, TimeUnit.SECONDS);
            return 1;
        });
        assertThat(run.started().await(30, TimeUnit.SECONDS)).as("'held' runs on its worker").isTrue();
        return held;
    }

    @Test
    void aCoordinatorWhoseMemberIsTerminatedFailsItsFuturesAndRefusesNewTasks() throws Exception {
        HazelcastCoordinator coordinator = startCluster(1, FreePorts.free(2));
        Client client = coordinator.client();
        ClusterFuture<Integer> held = held(client);

        coordinator.instance().getLifecycleService().terminate();   // by another part of the application

        assertThatThrownBy(() -> held.get(30, TimeUnit.SECONDS)).as("the task in flight")
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> client.submit("after", in -> 2)).as("a task submitted after the member stopped")
                .isInstanceOf(RejectedExecutionException.class);
        coordinator.close();                  // still safe
    }

    /**
     * The member shut down gracefully, and a future's callback closes the coordinator: the
     * scheduler's close must not run on the thread that shuts the member down, which holds
     * Hazelcast's lifecycle lock that the callback's close of the member then waits for.
     */
    @Test
    void aCoordinatorWhoseMemberIsShutDownFailsItsFuturesAndACallbackMayCloseIt() throws Exception {
        HazelcastCoordinator coordinator = startCluster(1, FreePorts.free(2));
        Client client = coordinator.client();
        ClusterFuture<Integer> held = held(client);
        CountDownLatch closedInCallback = new CountDownLatch(1);
        held.toCompletableFuture().whenComplete((v, e) -> {
            coordinator.close();
            closedInCallback.countDown();
        });
        List<Thread> closedOn = new CopyOnWriteArrayList<>();   // the callback's close is one of them
        HazelcastCoordinator.afterSchedulerCloseForTests = () -> closedOn.add(Thread.currentThread());
        try {
            coordinator.instance().getLifecycleService().shutdown();

            assertThatThrownBy(() -> held.get(30, TimeUnit.SECONDS)).as("the task in flight")
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(IllegalStateException.class);
            assertThat(closedInCallback.await(30, TimeUnit.SECONDS)).as("the callback's close returned").isTrue();
            assertThatThrownBy(() -> client.submit("after", in -> 2)).isInstanceOf(RejectedExecutionException.class);
            assertThat(closedOn).as("the threads that closed the coordinator's scheduler")
                    .isNotEmpty().doesNotContain(Thread.currentThread());   // not the one that shut the member down
        } finally {
            HazelcastCoordinator.afterSchedulerCloseForTests = () -> { };
        }
    }

    /** A worker whose member is terminated under it is lost: its task runs on the other worker. */
    @Test
    void aWorkerWhoseMemberIsTerminatedIsLostAndItsTaskRunsElsewhere() throws Exception {
        int[] ports = FreePorts.free(3);
        HazelcastCoordinator coordinator = startCluster(2, ports);
        String id = run.id();
        ClusterFuture<Integer> task = coordinator.client().submit(TaskSpec.<Integer>builder("on-0", args -> {
            RunGate r = RunGate.of(id);
            if (r.count().incrementAndGet() == 1) {
                r.started().countDown();
                r.gate().await(60, TimeUnit.SECONDS);
                return 0;
            }
            return 1;                          // run again, elsewhere
        }).restrictions(Restrictions.loose(Set.of(0))).build());
        assertThat(run.started().await(30, TimeUnit.SECONDS)).as("the task runs on worker 0").isTrue();

        com.hazelcast.core.Hazelcast.getHazelcastInstanceByName("spindle-worker-0-" + ports[1])
                .getLifecycleService().terminate();

        assertThat(task.get(30, TimeUnit.SECONDS)).as("the task run again on worker 1").isEqualTo(1);
        assertThat(coordinator.isLost(0)).isTrue();
    }
}
