/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.WorkerNode;
import dev.spindle.cluster.testkit.FreePorts;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A frame of the coordinator's that its worker cannot read (signed, of the worker's session, for
 * its process, new, but with bodies the worker's codec refuses: a defect, or members of different
 * builds) was dropped by the worker with nobody told: the coordinator took it as delivered, and
 * the tasks and releases it carried were lost for as long as the worker lived, its member staying
 * in the cluster. Its delivery now fails, which the coordinator handles as it does any frame that
 * was not delivered (the worker is lost, its tasks placed again, and it is told it is cut off:
 * {@code UndeliveredBatchLosesTheWorkerTest}, {@code CutOffWorkerExitsTest}). The coordinator
 * already did the same with a worker's frame it cannot read
 * ({@code UnreadableReportFrameLosesItsWorkerTest}).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class UnreadableFrameFailsItsDeliveryTest {

    private static final String SECRET = "unreadable-frame-secret-0123456789";

    /** {@code frame} sealed by {@code codec}, with a byte left over after its bodies, and signed again. */
    private static byte[] unreadable(FrameCodec codec, Wire.Frame frame) {
        byte[] sealed = codec.seal(frame);
        byte[] bad = Arrays.copyOf(sealed, sealed.length + 1);
        System.arraycopy(codec.mac(bad, FrameCodec.MAC_BYTES, bad.length - FrameCodec.MAC_BYTES), 0, bad, 0,
                FrameCodec.MAC_BYTES);
        return bad;
    }

    @Test
    void onlyAnUnreadableFrameTheWorkerWouldHaveActedOnFailsItsDelivery() {
        FrameCodec codec = new FrameCodec(SECRET.getBytes(StandardCharsets.UTF_8), List.of());
        Roster roster = new Roster(new Offences("worker 0"));
        WorkerTransport transport = new WorkerTransport(0, codec, roster, HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
        WorkerNode node = new WorkerNode(0, 1, transport);
        try {
            EnrolledWorker enrolled = EnrolledWorker.enrol(transport, node, codec);
            Session session = enrolled.coordinator();
            Session otherWorker = enrolled.otherWorker();
            long incarnation = enrolled.incarnation();
            Message.ReleaseKey body = new Message.ReleaseKey("k", 1);

            // frames the worker would have refused had they read: dropped, as before
            assertThatCode(() -> {
                transport.onFrame(unreadable(codec, session.frame(0, incarnation + 1, body)));
                transport.onFrame(unreadable(codec, otherWorker.frame(0, incarnation, body)));
                transport.onFrame(unreadable(new FrameCodec("another-secret-0123456789abcdef".getBytes(
                        StandardCharsets.UTF_8), List.of()), session.frame(0, incarnation, body)));
            }).as("unreadable frames the worker would not have acted on").doesNotThrowAnyException();

            byte[] genuine = unreadable(codec, session.frame(0, incarnation, body));
            assertThatThrownBy(() -> transport.onFrame(genuine)).as("the coordinator's unreadable frame")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("worker 0 cannot read a frame of the coordinator's");
            assertThatCode(() -> transport.onFrame(genuine)).as("its replay").doesNotThrowAnyException();
        } finally {
            node.close();
            transport.close();
        }
    }

    /**
     * On a real cluster the worker's refusal reaches the sender of the frame as the failure of its
     * invocation, where the coordinator's transport handles the worker as lost.
     */
    @Test
    void theCoordinatorsInvocationOfAnUnreadableFrameFails() throws Exception {
        int[] ports = FreePorts.free(2);
        String cluster = "spindle-unreadable-frame-" + ports[0];
        try (HazelcastWorker worker = HazelcastWorker.start(InProcessClusterTest.settings(cluster, SECRET, ports[1], ports)
                .build(), 0, 1);
             HazelcastCoordinator coordinator = HazelcastCoordinator.start(
                     InProcessClusterTest.settings(cluster, SECRET, ports[0], ports).build(),
                     CoordinatorSettings.builder().workers(1).threadsPerWorker(1).build(), Duration.ofSeconds(60))) {
            assertThat(coordinator.client().submit("before", in -> 7).get(60, TimeUnit.SECONDS)).isEqualTo(7);
            FrameCodec codec = new FrameCodec(SECRET.getBytes(StandardCharsets.UTF_8), List.of());
            byte[] frame = unreadable(codec, coordinator.session().frame(0, coordinator.incarnation(0),
                    new Message.ReleaseKey("never-submitted", 0)));
            Member member = coordinator.instance().getCluster().getMembers().stream()
                    .filter(m -> !m.localMember()).findFirst().orElseThrow();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            coordinator.instance().getExecutorService(HazelcastConfigs.MESSAGES).submitToMember(new Deliver(frame),
                    member, new ExecutionCallback<Object>() {
                        @Override
                        public void onResponse(Object response) {
                            outcome.complete(null);
                        }

                        @Override
                        public void onFailure(Throwable t) {
                            outcome.complete(t);
                        }
                    });
            assertThat(outcome.get(60, TimeUnit.SECONDS)).as("the invocation's failure (null: taken as delivered)")
                    .isNotNull().hasStackTraceContaining("worker 0 cannot read a frame of the coordinator's");
            assertThat(worker.isRunning()).as("the worker's member, not cut off by this test's own call").isTrue();
        }
    }
}
