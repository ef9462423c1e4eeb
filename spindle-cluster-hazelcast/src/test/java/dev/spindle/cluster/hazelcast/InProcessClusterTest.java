/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Member;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.RemoteTaskException;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.Sized;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.FreePorts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A coordinator, two workers and a member with the wrong secret, all in this JVM: graphs run with
 * member-to-member fetches, the impostor is ignored, forged frames are dropped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class InProcessClusterTest {

    private static final String SECRET = "in-process-secret-0123456789";
    private static final List<AutoCloseable> started = new ArrayList<>();
    private static HazelcastCoordinator coordinator;
    private static HazelcastWorker impostor;
    /** The roster's log records, captured from the start (its logger lives as long as this class). */
    private static final java.util.logging.Logger ROSTER_LOG = java.util.logging.Logger.getLogger(Offences.class.getName());
    private static final List<java.util.logging.LogRecord> rosterRecords =
            java.util.Collections.synchronizedList(new ArrayList<>());
    private static final java.util.logging.Handler capture = new java.util.logging.Handler() {
        @Override
        public void publish(java.util.logging.LogRecord r) {
            rosterRecords.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeAll
    static void start() throws Exception {
        ROSTER_LOG.addHandler(capture);
        int[] ports = FreePorts.free(4);
        String cluster = "spindle-inproc-" + ports[0];
        try {
            coordinator = startAll(cluster, ports);
        } catch (Exception | Error e) {
            stop();
            throw e;
        }
    }

    private static HazelcastCoordinator startAll(String cluster, int[] ports) throws Exception {
        HazelcastClusterSettings.Builder base = settings(cluster, SECRET, ports[0], ports);
        // the impostor claims worker 0 first, with the wrong secret
        impostor = HazelcastWorker.start(settings(cluster, "not-the-secret-0123456789", ports[3], ports).build(), 0, 1);
        started.add(impostor);
        for (int i = 0; i < 2; i++) {
            started.add(HazelcastWorker.start(settings(cluster, SECRET, ports[1 + i], ports).build(), i, 2));
        }
        HazelcastCoordinator c = HazelcastCoordinator.start(base.build(),
                CoordinatorSettings.builder().workers(2).threadsPerWorker(2).build(), Duration.ofSeconds(60));
        started.add(0, c);
        return c;
    }

    /** A value of a declared size, so that the bytes a graph moves are known. */
    record Blob(long sizeInBytes) implements Sized, java.io.Serializable {
    }

    /**
     * The coordinator's stats count the bytes moved between worker JVMs as LocalCluster's do: a
     * 3 MB value made on worker 0 and needed by four tasks on worker 1 moves once, 3 MB.
     */
    @Test
    void theBytesMovedBetweenWorkersAreCountedAsLocalClusterCountsThem() throws Exception {
        Client client = coordinator.client();
        long before = coordinator.stats().bytesTransferred();
        ClusterFuture<Blob> blob = client.submit(TaskSpec.builder("blob", in -> new Blob(3_000_000))
                .restrictions(Restrictions.strict(Set.of(0))).build());
        List<ClusterFuture<Long>> uses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            uses.add(client.submit(TaskSpec.builder("use-blob-" + i, args -> ((Blob) args.get(0)).sizeInBytes())
                    .dependsOn(blob).restrictions(Restrictions.strict(Set.of(1))).build()));
        }
        assertThat(client.gather(uses)).containsOnly(3_000_000L);
        // the copy's report (DataAdded) may reach the coordinator after the results: frames arrive
        // on several executor threads, in any order (see ReplayWindow), so wait for it to count
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (coordinator.stats().bytesTransferred() - before < 3_000_000L && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(coordinator.stats().bytesTransferred() - before).isEqualTo(3_000_000L);
    }

    /**
     * A result that is {@code null} is fetched by the other worker as {@code null}: the holder
     * answers with the value, not with "not held", which made the scheduler drop the holder and
     * compute the value again, over and over.
     */
    @Test
    void aNullResultIsFetchedAsAValueNotAsMissing() throws Exception {
        Client client = coordinator.client();
        ClusterFuture<Object> none = client.submit(TaskSpec.builder("null-result", in -> null)
                .restrictions(Restrictions.strict(Set.of(0))).build());
        ClusterFuture<String> use = client.submit(TaskSpec.builder("use-null", args -> "got " + args.get(0))
                .dependsOn(none).restrictions(Restrictions.strict(Set.of(1))).build());
        assertThat(use.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("got null");
    }

    /**
     * A task whose eight inputs are all on the other worker fetches them in one request frame,
     * not eight (the fetches of one frame of tasks leave together, one batch per holder).
     */
    @Test
    void theInputsOneTaskNeedsFromOneHolderAreFetchedInOneRequest() throws Exception {
        Client client = coordinator.client();
        List<ClusterFuture<Long>> parts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            long v = i;
            parts.add(client.submit(TaskSpec.builder("batched-part-" + i, args -> v)
                    .restrictions(Restrictions.strict(Set.of(0))).build()));
        }
        client.gather(parts);
        HazelcastWorker one = (HazelcastWorker) started.get(3);
        assertThat(one.id()).isEqualTo(1);
        long[] before = one.fetchCounts();
        ClusterFuture<Long> sum = client.submit(TaskSpec.builder("batched-sum", args -> {
            long s = 0;
            for (Object a : args) {
                s += (Long) a;
            }
            return s;
        }).dependsOn(parts.toArray(ClusterFuture<?>[]::new)).restrictions(Restrictions.strict(Set.of(1))).build());
        assertThat(sum.get(60, TimeUnit.SECONDS)).isEqualTo(28L);
        long[] after = one.fetchCounts();
        assertThat(after[1] - before[1]).as("fetches").isEqualTo(8);
        assertThat(after[0] - before[0]).as("request frames").isEqualTo(1);
    }

    static HazelcastClusterSettings.Builder settings(String cluster, String secret, int port, int[] ports) {
        HazelcastClusterSettings.Builder b = HazelcastClusterSettings.builder(cluster, secret).port(port).failureSeconds(8);
        for (int p : ports) {
            b.member("127.0.0.1:" + p);
        }
        return b;
    }

    @AfterAll
    static void stop() {
        ROSTER_LOG.removeHandler(capture);
        for (AutoCloseable c : started) {
            try {
                c.close();
            } catch (Exception ignored) {
                // best effort: the next member must still be stopped
            }
        }
        started.clear();
    }

    @Test
    void aGraphRunsAcrossMembersWithDependencyFetches() throws Exception {
        Client client = coordinator.client();
        List<ClusterFuture<Integer>> parts = client.scatter("part", List.of(1, 2, 3, 4, 5, 6));
        List<ClusterFuture<Integer>> squares = client.map("sq", args -> (Integer) args.get(0) * (Integer) args.get(0), parts);
        ClusterFuture<Integer> total = client.submit("total", args -> {
            int s = 0;
            for (Object o : args) {
                s += (Integer) o;
            }
            return s;
        }, squares.toArray(new ClusterFuture<?>[0]));
        assertThat(total.get(60, TimeUnit.SECONDS)).isEqualTo(91);
        assertThat(coordinator.finishedOn(0) + coordinator.finishedOn(1)).isGreaterThanOrEqualTo(13);
        // the counters and the steal log come from the coordinator as from a LocalCluster
        dev.spindle.cluster.ClusterStats stats = coordinator.stats();
        assertThat(stats.workers()).extracting(dev.spindle.cluster.ClusterStats.WorkerStats::id).containsExactly(0, 1);
        assertThat(stats.workers()).allSatisfy(w -> assertThat(w.alive()).isTrue());
        assertThat(stats.workers().get(0).executed() + stats.workers().get(1).executed()).isGreaterThanOrEqualTo(13);
        assertThat(stats.tasksInMemory()).isGreaterThanOrEqualTo(1);
        assertThat(coordinator.stealEvents()).isNotNull();
    }

    @Test
    void aFailingTaskErrsWithItsRemoteException() {
        ClusterFuture<Integer> f = coordinator.client().submit("boom", args -> {
            throw new java.io.UncheckedIOException(new java.io.IOException("disk on fire"));
        });
        assertThat(f.toCompletableFuture()).failsWithin(Duration.ofSeconds(60))
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(RemoteTaskException.class)
                .withMessageContaining("disk on fire");
    }

    @Test
    void membersBindToLoopbackByDefault() throws Exception {
        java.net.InetSocketAddress bound = (java.net.InetSocketAddress) coordinator.instance().getCluster()
                .getLocalMember().getSocketAddress();
        assertThat(bound.getAddress().isLoopbackAddress()).as(bound.toString()).isTrue();
        // nothing answers on the machine's other addresses for the member's port
        for (java.net.NetworkInterface ni : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
            for (java.net.InetAddress a : java.util.Collections.list(ni.getInetAddresses())) {
                if (!a.isLoopbackAddress() && a instanceof java.net.Inet4Address) {
                    try (java.net.Socket socket = new java.net.Socket()) {
                        assertThatThrownBy(() -> socket.connect(new java.net.InetSocketAddress(a, bound.getPort()), 1000))
                                .as("port %d on %s", bound.getPort(), a).isInstanceOf(java.io.IOException.class);
                    }
                }
            }
        }
    }

    @Test
    void aFunctionFromAPackageOutsideTheAllowListIsRefusedByTheWorker() {
        ClusterFuture<Integer> f = coordinator.client().submit("outside", dev.spindle.outside.OutsideFunctions.constant(7));
        assertThat(f.toCompletableFuture()).failsWithin(Duration.ofSeconds(60))
                .withThrowableOfType(ExecutionException.class)
                .withCauseInstanceOf(RemoteTaskException.class)
                .withMessageContaining("dev.spindle.outside.OutsideFunctions")
                .withMessageContaining("allow-list");
    }

    @Test
    void aMemberWithTheWrongSecretIsIgnored() {
        assertThat(coordinator.refusedMembers()).isGreaterThanOrEqualTo(1);
        assertThat(impostor.executed()).isZero();
    }

    @Test
    void aRefusedMemberIsCountedAndLoggedOnceHoweverOftenItIsChecked() throws InterruptedException {
        // the coordinator re-checked the impostor every 50 ms while it waited; check it 20 more times
        for (int i = 0; i < 20; i++) {
            coordinator.admission().admitAll();
        }
        assertThat(coordinator.refusedMembers()).isEqualTo(1);
        assertThat(coordinator.securityStats().refusedMembers()).isEqualTo(1);
        String impostorId = String.valueOf(impostor.instanceForTests().getCluster().getLocalMember().getUuid());
        long lines;
        synchronized (rosterRecords) {
            // every member logs through the one logger: count the lines that name the impostor
            lines = rosterRecords.stream()
                    .filter(r -> r.getParameters() != null && java.util.Arrays.stream(r.getParameters())
                            .anyMatch(p -> String.valueOf(p).equals(impostorId)))
                    .count();
        }
        assertThat(lines).as("lines about the impostor").isEqualTo(1);
    }

    @Test
    void aWorkerWithTheWrongSecretLearnsThatItIsRefused() {
        assertThatThrownBy(() -> impostor.awaitCoordinator(Duration.ofMillis(4500)))   // reported when the wait ends
                .isInstanceOf(MemberRefusedException.class)
                .hasMessageContaining("worker 0 refused")
                .hasMessageContaining("secret")
                .hasMessageContaining("within 4.5 s");          // not "4 s": the wait to the millisecond
    }

    @Test
    void aForgedFrameFromTheImpostorIsDropped() throws Exception {
        long before = coordinator.rejectedFrames();
        FrameCodec wrong = new FrameCodec("not-the-secret-0123456789".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                List.of());
        Member target = coordinator.instance().getCluster().getLocalMember();
        byte[] forged = wrong.seal(new Wire.Frame(java.util.UUID.randomUUID(), 0, 5L, Wire.COORDINATOR, 1,
                new Message.DataAdded(0, "forged")));
        impostor.instanceForTests().getExecutorService(HazelcastConfigs.MESSAGES)
                .executeOnMember(new Deliver(forged), target);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (coordinator.rejectedFrames() == before && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(coordinator.rejectedFrames()).isEqualTo(before + 1);
    }
}
