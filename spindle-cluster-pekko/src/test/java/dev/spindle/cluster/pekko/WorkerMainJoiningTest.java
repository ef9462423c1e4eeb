/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.WorkerJvm;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker JVM whose seed never answers keeps trying to join, and says so at once: the member it
 * started, the cluster it joins and through which seeds, before the wait (which has no end).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class WorkerMainJoiningTest {

    @Test
    void aWorkerSaysWhatItJoinsBeforeWaitingForItsSeed() throws Exception {
        int silentSeed = FreePorts.free();                 // nothing listens there
        String cluster = "spindle-lonely-" + silentSeed;
        DevCertificates certs = TestCerts.get();
        try (WorkerJvm worker = WorkerJvm.start(WorkerMain.class, List.of("-Xmx160m"),
                Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD), List.of("--id", "4", "--threads", "1",
                        "--cluster", cluster, "--key-store", certs.memberStore("worker").toString(),
                        "--trust-store", certs.trustStore().toString(), "--seed", "127.0.0.1:" + silentSeed))) {
            worker.awaitOutput("joining cluster '" + cluster + "' through 127.0.0.1:" + silentSeed, 60);
            assertThat(worker.out()).contains("spindle worker 4 started on 127.0.0.1:").doesNotContain("joined");
        }
    }
}
