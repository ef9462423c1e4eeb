/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.testkit.FreePorts;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member stopped by a failed start or by {@code close()} must be down when control returns to
 * the caller, its port free (and its threads gone), as {@code close()} documents: a caller that
 * retries on the same port (a launcher, a restarted process, a test) would otherwise fail with
 * "address in use".
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MemberStopRegressionTest {

    /**
     * Before: {@code PekkoWorker.start} with threads 0 bound its port, then {@code WorkerNode}
     * refused the thread count and the catch only asked the actor system to terminate; the
     * exception reached the caller while the port was still bound and Pekko's threads ran.
     */
    @Test
    void aWorkerStartRefusedAfterItsActorSystemStartedLeavesItsPortFreeAndNoThreads() throws InterruptedException {
        int[] ports = FreePorts.free(2);
        String cluster = "startfail-worker";
        PekkoClusterSettings settings = TestCerts.settings(cluster, "worker")
                .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build();

        assertThatThrownBy(() -> PekkoWorker.start(settings, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads");

        // checked at once: the member must be down when start's exception reaches the caller
        assertThat(OrderlyCloseTest.bindable(ports[1])).as("the failed worker's port is free").isNull();
        // its dispatchers' threads exit shortly after the actor system is down: poll, not a fixed wait
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (threadsOf(cluster) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(threadsOf(cluster)).as("threads of the failed worker's actor system").isZero();
    }

    /**
     * Before: {@code close()} on a thread whose interrupt status was set (a task cancelled with
     * {@code shutdownNow()} closing its member in a finally block or try-with-resources, or a
     * {@code start} whose wait was interrupted and which cleans up with {@code close()}) returned
     * at once, its wait for the actor system cut short by the interrupt: the port was still
     * bound, although {@code close()} promises that it is free on return.
     */
    @Test
    void closeOnAnInterruptedThreadStillReturnsWithThePortFreeAndKeepsTheInterrupt() {
        int[] ports = FreePorts.free(2);
        PekkoWorker worker = PekkoWorker.start(TestCerts.settings("startfail-interrupted", "worker")
                .seedNode("127.0.0.1:" + ports[0]).port(ports[1]).build(), 0, 1);
        boolean stillInterrupted;
        String port;
        Thread.currentThread().interrupt();
        try {
            worker.close();
            port = OrderlyCloseTest.bindable(ports[1]);
        } finally {
            stillInterrupted = Thread.interrupted();
        }
        assertThat(port).as("the worker's port when close() returned on an interrupted thread").isNull();
        assertThat(stillInterrupted).as("the caller's interrupt status after close()").isTrue();
    }

    private static long threadsOf(String cluster) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(cluster + "-"))
                .count();
    }
}
