/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.Cleanup;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.WorkerJvm;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker JVM that the coordinator refuses for its message limit exits with status 1 and says
 * so, as an operator meets it: the coordinator tells a refused member nothing, and the worker
 * idled in the cluster for good, its operator left to find the reason in the coordinator's log.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RefusedWorkerMainTest {

    private final Cleanup started = new Cleanup();

    @AfterEach
    void stop() throws Exception {
        started.close();
    }

    @Test
    void aWorkerWithAnotherMessageLimitExitsWithTheReason() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-refused-" + ports[0];
        started.add(PekkoWorker.start(TestCerts.settings(cluster, "worker").seedNode("127.0.0.1:" + ports[0])
                .port(ports[1]).build(), 0, 1));
        started.add(PekkoCoordinator.start(TestCerts.settings(cluster, "coordinator").port(ports[0]).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(120)));
        DevCertificates certs = TestCerts.get();
        try (WorkerJvm refused = WorkerJvm.start(WorkerMain.class, List.of("-Xmx160m"),
                Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD), List.of("--id", "1", "--threads", "1",
                        "--cluster", cluster, "--key-store", certs.memberStore("worker").toString(),
                        "--trust-store", certs.trustStore().toString(), "--seed", "127.0.0.1:" + ports[0],
                        "--max-message-bytes", Integer.toString(PekkoClusterSettings.MIN_MESSAGE_BYTES)))) {
            // the bound is a hang guard: it exits as soon as it sees the coordinator
            int status = refused.awaitExit(120);
            assertThat(status).as(refused.err()).isEqualTo(1);
            assertThat(refused.err()).contains("spindle worker 1 refused: the coordinator at 127.0.0.1:" + ports[0]
                    + " has a message limit of " + (256 * 1024) + " bytes, this worker "
                    + PekkoClusterSettings.MIN_MESSAGE_BYTES + ": every member needs the same maxMessageBytes");
        }
    }
}
