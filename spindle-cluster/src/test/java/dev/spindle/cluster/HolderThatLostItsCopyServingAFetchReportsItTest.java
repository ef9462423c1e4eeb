/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A holder whose spilled copy could not be read back as it served another worker's fetch dropped
 * the copy and answered "not held"; the requester went on to the next holder and, fetching it
 * there, reported nothing of the first (had none answered, it would have named only the last it
 * tried). Nobody told the scheduler, which went on counting the copy for as long as the key was
 * held: the holder's keys and memory, a holder named first to every task that fetches the input,
 * tasks placed there for a value it does not have. The holder now reports its own loss.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HolderThatLostItsCopyServingAFetchReportsItTest {

    private static final int MB = 1_000_000;

    /** What a transport answering a fetch returns for a key not held. */
    private static final Object NOT_HELD = new Object();

    @Test
    void aCopyLostAsItWasServedIsReportedByItsHolder(@TempDir Path spill) throws Exception {
        RecordingTransport transport = new RecordingTransport();
        WorkerNode node = new WorkerNode(0, 1, new WorkerMemory(2L * MB, spill), transport);
        try {
            // a, then b: over the spill target, a goes to disk
            node.receive(new Message.Compute("a", 1, args -> MemoryReleaseTest.Chunk.of(MB), List.of(), Map.of(), 0, 0));
            transport.awaitFinished("a", 1);
            node.receive(new Message.Compute("b", 2, args -> MemoryReleaseTest.Chunk.of(MB), List.of(), Map.of(), 0, 0));
            transport.awaitFinished("b", 2);
            List<Path> files;
            try (Stream<Path> all = Files.walk(spill)) {
                files = all.filter(Files::isRegularFile).toList();
            }
            assertThat(files).as("a spilled").hasSize(1);
            Files.delete(files.get(0));      // a temporary-file cleaner

            // another worker's fetch of a, which goes on to the next holder
            assertThat(node.valueOrDefault("a", NOT_HELD)).as("the answer to the fetch").isSameAs(NOT_HELD);
            List<Message.DataMissing> missing = new ArrayList<>();
            synchronized (transport) {
                for (Message.ToScheduler m : transport.toScheduler) {
                    if (m instanceof Message.DataMissing d) {
                        missing.add(d);
                    }
                }
            }
            assertThat(missing).as("the holder's reports of a missing copy")
                    .containsExactly(new Message.DataMissing(0, "a", 0, "a", 0));

            // the scheduler, with a second holder of a, counts only that one from then on
            assertThat(uncounts(missing.get(0))).as("the holders of a once the report is handled").containsExactly(1);
        } finally {
            node.close();
        }
    }

    @Test
    void aCopyLostAsTheInProcessTransportServedItIsReportedByItsHolder(@TempDir Path spill) throws Exception {
        LocalTransport transport = new LocalTransport(1e9, 0);
        ClusterWorker holder = new ClusterWorker(0, 1, transport, new WorkerMemory(2L * MB, spill), false);
        List<Message.ToScheduler> reports = new ArrayList<>();
        try {
            transport.connect(List.of(holder), m -> {
                synchronized (reports) {
                    reports.add(m);
                    reports.notifyAll();
                }
            });
            holder.store().put("a", MemoryReleaseTest.Chunk.of(MB), MB);
            holder.store().put("b", MemoryReleaseTest.Chunk.of(MB), MB);
            try (Stream<Path> all = Files.walk(spill)) {
                List<Path> files = all.filter(Files::isRegularFile).toList();
                assertThat(files).as("a spilled").hasSize(1);
                Files.delete(files.get(0));
            }

            assertThat(transport.fetch("a", 0, 1)).as("the fetch of a from worker 0")
                    .failsWithin(10, TimeUnit.SECONDS);
            synchronized (reports) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (reports.isEmpty() && System.nanoTime() < deadline) {
                    reports.wait(100);
                }
                assertThat(reports).as("the holder's reports").containsExactly(new Message.DataMissing(0, "a", 0, "a", 0));
            }
        } finally {
            holder.shutdown();
            transport.close();
        }
    }

    /** The holders of a that a scheduler counts after {@code report}, a held on workers 0 and 1. */
    private static List<Integer> uncounts(Message.DataMissing report) throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(3).build(), wire);
        try {
            s.submit(List.of(TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            reply(s, new Message.TaskFinished(0, "a", wire.lastCompute("a").attempt(), 1, 8, 1000));
            s.submit(List.of(TaskSpec.builder("t", args -> 2).dependsOn("a")
                    .restrictions(Restrictions.strict(Set.of(1))).build()));
            reply(s, new Message.DataAdded(1, "a", 8, wire.lastCompute("t").releases()));

            reply(s, report);

            assertThat(s.stats().workers().get(0).keysHeld()).as("the keys counted on worker 0, which holds none")
                    .isZero();
            assertThat(s.stats().workers().get(0).memoryBytes()).as("the bytes counted on worker 0").isZero();
            s.checkCountsForTests();
            return s.inspectTasks((tasks, ws) -> new ArrayList<>(tasks.get("a").holders));
        } finally {
            s.close();
        }
    }
}
