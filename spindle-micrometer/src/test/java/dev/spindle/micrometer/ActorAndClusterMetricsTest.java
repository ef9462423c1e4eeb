package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.testkit.UnreachableTransport;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorAndClusterMetricsTest {

    private final MeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void anActorSystemsMessagesDeadLettersAndLiveActorsMove() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("actors").build()) {
            new ActorSystemMetrics(system).bindTo(registry);
            ActorRef<StringBuilder> ref = system.spawn(StringBuilder::new);
            assertThat(registry.get("spindle.actor.live").tag("system", "actors").gauge().value()).isEqualTo(1);
            for (int i = 0; i < 10; i++) {
                ref.tell(sb -> sb.append('x'));
            }
            assertThat(ref.ask(StringBuilder::length).get(10, TimeUnit.SECONDS)).isEqualTo(10);
            ref.stop();
            ref.tell(sb -> sb.append('y'));
            // an activation adds the messages it handled to the count when it ends, which may be
            // just after the ask's reply was sent from inside it: wait for them, bounded
            awaitAtLeast(() -> registry.get("spindle.actor.messages").tag("system", "actors")
                    .functionCounter().count(), 11);
            // the stop and the letter behind it are handled asynchronously: wait for them, bounded
            awaitAtLeast(() -> registry.get("spindle.actor.dead.letters").tag("system", "actors")
                    .functionCounter().count(), 1);
            assertThat(registry.get("spindle.actor.live").tag("system", "actors").gauge().value()).isZero();
        }
    }

    @Test
    void aClustersTasksStealsAndBytesMoveAndAClosedClusterReadsNaN() throws Exception {
        LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1)
                .latency(Duration.ZERO).bandwidth(1e12).stealing(false).balanceInterval(Duration.ZERO).build();
        try {
            new ClusterMetrics(cluster, "c").bindTo(registry);
            ClusterFuture<byte[]> data = cluster.client().scatter("data", new byte[1000], 0);
            ClusterFuture<Integer> onOther = cluster.client().submit("len", in -> ((byte[]) in.get(0)).length, data);
            assertThat(onOther.get(10, TimeUnit.SECONDS)).isEqualTo(1000);
            assertThat(registry.get("spindle.cluster.workers").tag("cluster", "c").gauge().value()).isEqualTo(2);
            assertThat(registry.get("spindle.cluster.tasks").tag("state", "memory").gauge().value()).isPositive();
            assertThat(registry.get("spindle.cluster.tasks.executed").functionCounter().count()).isPositive();
            assertThat(registry.get("spindle.cluster.steals").tag("outcome", "requested").functionCounter().count())
                    .isEqualTo(cluster.stats().stealsRequested());
            assertThat(registry.get("spindle.cluster.transferred").functionCounter().count())
                    .isEqualTo(cluster.stats().bytesTransferred());
            assertThat(registry.get("spindle.cluster.stats.age").tag("cluster", "c").gauge().value())
                    .as("the age of figures just read: a number, not NaN").isNotNaN().isGreaterThanOrEqualTo(0);
        } finally {
            cluster.close();
        }
        assertThat(registry.get("spindle.cluster.workers").gauge().value()).isNaN();
        assertThat(registry.get("spindle.cluster.stats.age").gauge().value()).isNaN();
    }

    /**
     * A coordinator binds as a LocalCluster does: here over a transport that reaches no worker (no
     * other JVM is started), so a submitted task stays assigned and the gauges read what its
     * scheduler knows; once closed (it throws RejectedExecutionException then) every gauge reads NaN,
     * every counter its last figure.
     */
    @Test
    void aCoordinatorsWorkersAndTasksAreMeteredAndAClosedOneReadsNaN() throws Exception {
        ClusterCoordinator coordinator = ClusterCoordinator.start(CoordinatorSettings.builder().workers(2)
                .threadsPerWorker(1).stealing(false).balanceInterval(Duration.ZERO).build(), new UnreachableTransport());
        try {
            new ClusterMetrics(coordinator, "grid").bindTo(registry);
            coordinator.client().submit("waits", args -> 1);
            awaitAtLeast(() -> registry.get("spindle.cluster.tasks").tag("cluster", "grid")
                    .tag("state", "processing").gauge().value(), 1);
            assertThat(registry.get("spindle.cluster.workers").tag("cluster", "grid").gauge().value()).isEqualTo(2);
            assertThat(registry.get("spindle.cluster.tasks.executed").functionCounter().count()).isZero();
        } finally {
            coordinator.close();
        }
        assertThat(registry.get("spindle.cluster.workers").tag("cluster", "grid").gauge().value()).isNaN();
        assertThat(registry.get("spindle.cluster.steals").tag("outcome", "requested").functionCounter().count())
                .as("a counter keeps its last figure").isZero();
    }

    /** A task that no live worker may run is metered as waiting for one until a worker joins and runs it. */
    @Test
    void aTaskWaitingForAWorkerIsMeteredUntilItsWorkerRejoins() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).stealing(false)
                .balanceInterval(Duration.ZERO).noWorkerTimeout(Duration.ofSeconds(50)).build()) {
            new ClusterMetrics(cluster, "w").bindTo(registry);
            cluster.killWorker(1);
            ClusterFuture<Integer> g = cluster.client().submit(TaskSpec.builder("g", args -> 3)
                    .restrictions(Restrictions.strict(Set.of(1))).build());
            awaitAtLeast(() -> registry.get("spindle.cluster.tasks").tag("cluster", "w")
                    .tag("state", "awaiting-worker").gauge().value(), 1);
            cluster.restartWorker(1);
            assertThat(g.get(30, TimeUnit.SECONDS)).isEqualTo(3);
            assertThat(registry.get("spindle.cluster.tasks").tag("cluster", "w")
                    .tag("state", "awaiting-worker").gauge().value()).isZero();
        }
    }

    /**
     * A task cancelled before it started is counted as the cluster counts it
     * ({@code ClusterStats.tasksCancelled}); one that ran is not.
     */
    @Test
    void aTaskCancelledBeforeItStartedIsCounted() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).latency(Duration.ZERO)
                .stealing(false).balanceInterval(Duration.ZERO).build()) {
            new ClusterMetrics(cluster, "x").bindTo(registry);
            java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
            ClusterFuture<Integer> in = cluster.client().submit("in", args -> {
                gate.await(30, TimeUnit.SECONDS);
                return 1;
            });
            ClusterFuture<Integer> t = cluster.client().submit("t", args -> 2, in);
            assertThat(registry.get("spindle.cluster.tasks.cancelled").tag("cluster", "x").functionCounter().count())
                    .isZero();
            assertThat(t.cancel(false)).isTrue();        // waiting for 'in': forgotten without running
            awaitAtLeast(() -> registry.get("spindle.cluster.tasks.cancelled").tag("cluster", "x")
                    .functionCounter().count(), 1);
            gate.countDown();
            assertThat(in.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(registry.get("spindle.cluster.tasks.cancelled").tag("cluster", "x").functionCounter().count())
                    .isEqualTo(1).isEqualTo(cluster.stats().tasksCancelled());
        }
    }

    private static void awaitAtLeast(DoubleSupplier value, double expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (value.getAsDouble() < expected && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(value.getAsDouble()).isGreaterThanOrEqualTo(expected);
    }

    @Test
    void nullsAreRefusedByName() {
        assertThatThrownBy(() -> new ActorSystemMetrics(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("system");
        assertThatThrownBy(() -> new ClusterMetrics(null, "c"))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("cluster");
    }
}
