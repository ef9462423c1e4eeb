/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Hazelcast worker whose port is taken after {@link WorkerMain#run}'s check and before its
 * member binds (another process starting at the same moment) is refused as the check refuses
 * it: one line naming the port and {@code --port}, the usage, status 2. It said its member
 * could not start, with Hazelcast's message, and exited with status 1, the status of a worker
 * that could not take part in the cluster.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerMainBindRaceTest {

    @AfterEach
    void noHook() {
        WorkerMain.beforeStartForTests = () -> { };
    }

    @Test
    void aPortTakenAfterTheCheckIsABadCommandLine() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        AtomicReference<ServerSocket> taker = new AtomicReference<>();
        WorkerMain.beforeStartForTests = () -> {
            try {
                taker.set(new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1")));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            int status = WorkerMain.run(new String[] {"--id", "0", "--threads", "1", "--cluster", "c",
                "--port", Integer.toString(port), "--coordinator-wait-seconds", "1"},
                    Map.of("SPINDLE_SECRET", "bind-race-secret-0123456789"),
                    new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
            String errText = err.toString(StandardCharsets.UTF_8);
            assertThat(taker.get()).as("the hook took the port").isNotNull();
            assertThat(status).as(errText).isEqualTo(WorkerMain.USAGE);
            assertThat(errText.lines().findFirst().orElse(""))
                    .startsWith("WorkerMain: cannot listen on 127.0.0.1:" + port + " (")
                    .endsWith("choose another with --port");
            assertThat(errText).contains("usage:").doesNotContain("\tat ");
        } finally {
            if (taker.get() != null) {
                taker.get().close();
            }
        }
    }
}
