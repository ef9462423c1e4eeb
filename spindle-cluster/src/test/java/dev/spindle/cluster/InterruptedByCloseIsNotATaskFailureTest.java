/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.WorkStealingPool;
import java.lang.reflect.Field;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link WorkerNode} closed while a task runs (a Hazelcast worker's {@code close()} closes its
 * node before its transport, which still reaches the coordinator): the close interrupts the
 * running task, whose function then threw its {@link InterruptedException}, and the worker
 * reported that as the task's failure, so the coordinator failed the task (its caller got the
 * interruption) instead of placing it again once the worker left. A stopped worker's running
 * tasks are abandoned: nothing they end with is reported.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InterruptedByCloseIsNotATaskFailureTest {

    private static WorkStealingPool poolOf(WorkerNode node) throws Exception {
        Field w = WorkerNode.class.getDeclaredField("worker");
        w.setAccessible(true);
        Field p = ClusterWorker.class.getDeclaredField("pool");
        p.setAccessible(true);
        return (WorkStealingPool) p.get(w.get(node));
    }

    @Test
    void aTaskInterruptedByTheNodesCloseIsNotReportedFailed() throws Exception {
        RecordingTransport transport = new RecordingTransport();
        WorkerNode node = new WorkerNode(0, 1, transport);
        WorkStealingPool pool = poolOf(node);
        CountDownLatch started = new CountDownLatch(1);   // this run's: the function is not serialised here
        TaskFunction<String> sleeps = args -> {
            started.countDown();
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
            return "late";
        };
        node.receive(new Message.Compute("slow", 1, sleeps, List.of(), Map.of(), 0, 0));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

        node.close();                         // interrupts the running task
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).as("the pool stopped").isTrue();

        List<Message.ToScheduler> sent;
        synchronized (transport) {
            sent = List.copyOf(transport.toScheduler);
        }
        assertThat(sent).as("nothing reported for the abandoned task").isEmpty();
    }
}
