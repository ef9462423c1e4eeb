/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator whose actor system terminated before its member was Up (its seed nodes never
 * answered and Pekko gave the join up, or it was downed while joining) never will be, and Pekko
 * drops the on-Up callback: {@code start} waited out the whole join timeout for a member that was
 * gone. It fails at once now, as a worker's {@code joined()} does.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CoordinatorStoppedBeforeUpTest {

    private static final String GIVE_UP = "pekko.cluster.shutdown-after-unsuccessful-join-seed-nodes";

    @Test
    void aCoordinatorWhoseActorSystemStopsBeforeItIsUpFailsAtOnce() throws Exception {
        int[] ports = FreePorts.free(2);
        PekkoClusterSettings settings = TestCerts.settings("stopped-before-up", "coordinator")
                .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build();   // nobody at the seed
        String before = System.getProperty(GIVE_UP);
        System.setProperty(GIVE_UP, "3s");
        ConfigFactory.invalidateCaches();
        CompletableFuture<PekkoCoordinator> start;
        try {
            start = CompletableFuture.supplyAsync(() -> {
                try {
                    return PekkoCoordinator.start(settings, CoordinatorSettings.builder().workers(1).build(),
                            Duration.ofHours(1));
                } catch (Exception e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            Throwable failed = null;
            try {
                // a hang guard, not a measure: before, start waited out the hour
                start.get(90, TimeUnit.SECONDS).close();
            } catch (ExecutionException e) {
                failed = e.getCause();
            }
            assertThat(failed).as("start of a coordinator whose actor system stopped before it was Up")
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("could not join the cluster");
        } finally {
            if (before == null) {
                System.clearProperty(GIVE_UP);
            } else {
                System.setProperty(GIVE_UP, before);
            }
            ConfigFactory.invalidateCaches();
        }
    }
}
