/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.WorkerNode;
import dev.spindle.cluster.testkit.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The coordinator cuts a worker off while its member stays in the cluster: a frame to it was not
 * delivered, or the scheduler's send to it threw ({@link CoordinatorTransport#workerLost}). Its
 * tasks are placed again and nothing more is sent to it or accepted from it; but the worker was
 * never told, so its {@link WorkerMain} ran on, idle for good, and a supervisor that restarts a
 * worker whose process ended never did. Now the coordinator tells the cut-off process, which
 * leaves the cluster and exits non-zero with the reason.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class CutOffWorkerExitsTest {

    private static final String SECRET = "cut-off-worker-secret-0123456789";

    @Test
    void aWorkerTheCoordinatorCutsOffWhileItsMemberStaysExitsWithTheReason() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-cut-off-" + ports[0];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] args = {"--id", "0", "--threads", "1", "--cluster", cluster, "--port", Integer.toString(ports[1]),
                "--members", "127.0.0.1:" + ports[0] + ",127.0.0.1:" + ports[1]};
        CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> WorkerMain.run(args,
                Map.of("SPINDLE_SECRET", SECRET), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        try (HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(90))) {
            awaitReady(out);
            assertThat(coordinator.client().submit("before", in -> 7).get(60, TimeUnit.SECONDS)).isEqualTo(7);

            // as the scheduler does when its send to the worker threw
            coordinator.transport().workerLost(0);
            assertThat(coordinator.isLost(0)).as("cut off at the coordinator").isTrue();

            assertThat(status.get(60, TimeUnit.SECONDS)).as("the worker's exit status").isEqualTo(WorkerMain.FAILED);
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("worker 0 stopped: the coordinator cut it off");
            assertThat(Hazelcast.getHazelcastInstanceByName("spindle-worker-0-" + ports[1]))
                    .as("the cut-off worker's member").isNull();
        } finally {
            HazelcastInstance left = Hazelcast.getHazelcastInstanceByName("spindle-worker-0-" + ports[1]);
            if (left != null) {
                left.shutdown();               // without the fix the member would still run here
            }
        }
    }

    /**
     * Only the coordinator's frame of its session, sealed for this very process, cuts a worker
     * off: not one sealed for another incarnation of the id, nor one naming another worker, nor
     * one from another worker, nor one signed with another secret.
     */
    @Test
    void onlyTheCoordinatorsFrameForThisProcessCutsTheWorkerOff() {
        byte[] secret = SECRET.getBytes(StandardCharsets.UTF_8);
        FrameCodec codec = new FrameCodec(secret, List.of());
        Roster roster = new Roster(new Offences("worker 0"));
        WorkerTransport transport = new WorkerTransport(0, codec, roster, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        WorkerNode node = new WorkerNode(0, 1, transport);
        AtomicInteger cutOff = new AtomicInteger();
        transport.onCutOff(cutOff::incrementAndGet);
        try {
            EnrolledWorker enrolled = EnrolledWorker.enrol(transport, node, codec);
            Session session = enrolled.coordinator();
            Session otherWorker = enrolled.otherWorker();
            long incarnation = enrolled.incarnation();

            transport.onFrame(codec.seal(session.frame(0, incarnation + 1, new Wire.CutOff(0))));
            transport.onFrame(codec.seal(session.frame(0, incarnation, new Wire.CutOff(1))));
            transport.onFrame(codec.seal(otherWorker.frame(0, incarnation, new Wire.CutOff(0))));
            transport.onFrame(new FrameCodec("another-secret-0123456789abcdef".getBytes(StandardCharsets.UTF_8),
                    List.of()).seal(session.frame(0, incarnation, new Wire.CutOff(0))));
            assertThat(cutOff).as("cut-offs acted on").hasValue(0);

            byte[] genuine = codec.seal(session.frame(0, incarnation, new Wire.CutOff(0)));
            transport.onFrame(genuine);
            transport.onFrame(genuine);       // a replay is refused
            assertThat(cutOff).as("cut-offs acted on").hasValue(1);
        } finally {
            node.close();
            transport.close();
        }
    }

    private static void awaitReady(ByteArrayOutputStream out) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!out.toString(StandardCharsets.UTF_8).contains("ready") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }
}
