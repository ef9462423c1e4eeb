/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.testkit.LogLines;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's key is the client's text (a worker has it from the coordinator, which took it from a
 * client), any characters of any length, and the scheduler and the workers' stores wrote it into
 * their log lines as it was: a key holding a line break wrote a line of the client's choosing into
 * the log, one that reads as the member's own (here, a worker let in), and a terminal escape went
 * to the operator's terminal. Now each such line writes the key {@linkplain LogText#printable
 * printable}, as the transports write a peer's text.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForgedKeyLogLineTest {

    private static final String FORGED = "WARNING: worker 9 admitted, proof ok";
    private static final String KEY = "k\n" + FORGED + "\u001b[2K";
    private static final String ESCAPED = "k\\n" + FORGED + "\\u001b[2K";

    /** Sized, so that nothing serialises it before the store; its writing fails, with a line break too. */
    static final class Unwritable implements Sized, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public long sizeInBytes() {
            return 1_000;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            throw new IOException("cannot\n" + FORGED);
        }
    }

    @Test
    void aKeyCannotStartALineInTheSchedulersLog() throws Exception {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).retries(0).build(), t);
        try (LogLines log = LogLines.of(GraphScheduler.class)) {
            CompletableFuture<Object> f = s.submit(List.of(TaskSpec.builder(KEY, args -> 1).build())).get(0);
            // its only worker stalls on memory: the task is taken back, and fails naming its key
            HandDriven.reply(s, new Message.MemoryStall(0, true, 0, 9_000_000, 10_000_000));
            Message.StealRequest w = t.sentToWorkers().stream().map(RecordingTransport.Sent::message)
                    .filter(m -> m instanceof Message.StealRequest r && r.stealId() < 0)
                    .map(Message.StealRequest.class::cast).findFirst().orElseThrow();
            HandDriven.reply(s, new Message.StealResponse(0, w.stealId(), KEY, w.attempt(), true));
            assertThat(f).failsWithin(20, TimeUnit.SECONDS);

            String line = log.lines().stream().filter(l -> l.contains("failing task")).findFirst()
                    .orElseThrow(() -> new AssertionError("no line on the failed task in " + log.lines()));
            assertThat(line).as("the scheduler's log line").doesNotContain("\n").doesNotContain("\u001b")
                    .contains("'" + ESCAPED + "'");
        } finally {
            s.close();
        }
    }

    @Test
    void aKeyOrAValuesFailureCannotStartALineInAStoresLog(@TempDir Path parent) {
        DataStore store = new DataStore(new WorkerMemory(1_000, parent));
        try (LogLines log = LogLines.of(DataStore.class)) {
            store.put(KEY, new Unwritable(), 1_000);   // over the target by itself: it would spill, and cannot

            assertThat(store.get(KEY)).isInstanceOf(Unwritable.class);
            String line = log.lines().stream().filter(l -> l.contains("cannot spill")).findFirst()
                    .orElseThrow(() -> new AssertionError("no line on the value that cannot spill in " + log.lines()));
            assertThat(line).as("the store's log line").doesNotContain("\n").doesNotContain("\u001b")
                    .contains("'" + ESCAPED + "'").contains("cannot\\n" + FORGED);
        } finally {
            store.clear();
        }
    }
}
