/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.Sized;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A result that cannot travel to the coordinator fails its task; the worker that computed it
 * kept the value in its store, though, and nobody ever released it. With
 * {@link CoordinatorSettings#forgetReleased()} the key may then be submitted anew: a dependent of
 * the new task placed on that worker found the key in its store, skipped the fetch and ran on the
 * old, failed attempt's value, a silently wrong result.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ResultTravelRegressionTest {

    private static final String SECRET = "result-travel-secret-0123456789";
    private final Cleanup started = new Cleanup();

    /** A value the worker can hold and measure but not send: not serialisable. */
    record Opaque(long sizeInBytes) implements Sized {
    }

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aDependentOfAKeySubmittedAgainGetsTheNewValueNotTheFailedAttemptsCopy() throws Exception {
        HazelcastCoordinator coordinator = startTwoWorkers("spindle-result-travel-");

        ClusterFuture<Object> first = coordinator.client().submit(TaskSpec.<Object>builder("k", args -> new Opaque(8))
                .restrictions(Restrictions.strict(Set.of(0))).build());
        assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).as("its result cannot travel")
                .isInstanceOf(ExecutionException.class);
        first.release();                      // forgotten: the key may be submitted anew

        assertADependentOnWorker0ReadsTheKeySubmittedAgain(coordinator);
    }

    /**
     * The same with a result the coordinator's allow-list refuses on arrival (a class of a package
     * it does not allow): the worker reported it and holds it, the coordinator fails the task.
     */
    @Test
    void aDependentOfAKeySubmittedAgainAfterItsResultWasRefusedGetsTheNewValue() throws Exception {
        HazelcastCoordinator coordinator = startTwoWorkers("spindle-result-refused-");

        ClusterFuture<Object> first = coordinator.client().submit(TaskSpec.<Object>builder("k",
                        args -> new java.util.concurrent.atomic.AtomicLong(5))
                .restrictions(Restrictions.strict(Set.of(0))).build());
        assertThatThrownBy(() -> first.get(30, TimeUnit.SECONDS)).as("its result's class is refused")
                .isInstanceOf(ExecutionException.class).hasMessageContaining("refused");
        first.release();

        assertADependentOnWorker0ReadsTheKeySubmittedAgain(coordinator);
    }

    /** Workers 0 and 1 and their coordinator, which forgets released tasks and retries none. */
    private HazelcastCoordinator startTwoWorkers(String name) throws Exception {
        int[] ports = FreePorts.free(3);
        String cluster = name + ports[0];
        for (int i = 0; i < 2; i++) {
            started.add(HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1 + i], ports).build(),
                    i, 2));
        }
        return started.add(HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(2).retries(0).forgetReleased(true).build(),
                Duration.ofSeconds(60)));
    }

    /**
     * Submits "k" again (on worker 1) and a dependent of it on worker 0, which held the failed
     * attempt's copy: the dependent must read the new value.
     */
    private static void assertADependentOnWorker0ReadsTheKeySubmittedAgain(HazelcastCoordinator coordinator)
            throws Exception {
        ClusterFuture<Object> again = submitAgain(coordinator);
        assertThat(again.get(30, TimeUnit.SECONDS)).isEqualTo("new");
        ClusterFuture<String> dependent = coordinator.client().submit(TaskSpec.builder("d",
                        args -> String.valueOf(args.get(0)))
                .dependsOn(again).restrictions(Restrictions.strict(Set.of(0))).build());

        assertThat(dependent.get(30, TimeUnit.SECONDS)).as("the value of the key's current task").isEqualTo("new");
    }

    /** Submits "k" on worker 1 once the scheduler has forgotten the failed one (it does so on its own thread). */
    private static ClusterFuture<Object> submitAgain(HazelcastCoordinator coordinator) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                return coordinator.client().submit(TaskSpec.<Object>builder("k", args -> "new")
                        .restrictions(Restrictions.strict(Set.of(1))).build());
            } catch (IllegalArgumentException notForgottenYet) {
                if (System.nanoTime() - deadline > 0) {
                    throw notForgottenYet;
                }
                Thread.sleep(20);
            }
        }
    }
}
