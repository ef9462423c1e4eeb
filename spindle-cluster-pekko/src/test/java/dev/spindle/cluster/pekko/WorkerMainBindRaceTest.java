/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A Pekko worker whose port is taken after {@link WorkerMain#start}'s check and before its
 * member binds (another process starting at the same moment) is refused as the check refuses
 * it: an {@link IllegalArgumentException} naming the port and {@code --port}, which
 * {@code main} prints as one line and the usage, status 2. The member's failure to bind
 * escaped {@code main}, which caught only the command line's exceptions: Pekko's
 * {@code RemoteTransportException} and its stack trace, status 1.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerMainBindRaceTest {

    @AfterEach
    void noHook() {
        WorkerMain.beforeStartForTests = () -> { };
        PekkoWorker.afterNodeStartForTests = () -> { };
    }

    /**
     * A start that fails for another reason, a bug, is not taken for a bad command line: an
     * {@link IllegalArgumentException} or {@link NullPointerException} thrown as the member
     * started reached {@code main} as it was, which prints those two as a usage error (one line,
     * the usage, status 2) and so hid the bug's stack trace.
     */
    @Test
    void aBugInTheStartIsNotABadCommandLine() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = free.getLocalPort();
        }
        NullPointerException bug = new NullPointerException("injected as the member started");
        PekkoWorker.afterNodeStartForTests = () -> {
            throw bug;
        };
        DevCertificates certs = TestCerts.get();
        Throwable t = catchThrowable(() -> WorkerMain.start(new String[] {"--id", "0", "--threads", "1",
            "--cluster", "c", "--key-store", certs.memberStore("worker").toString(),
            "--trust-store", certs.trustStore().toString(), "--seed", "127.0.0.1:25520",
            "--port", Integer.toString(port)}, Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD)));
        assertThat(t).isNotInstanceOfAny(IllegalArgumentException.class, NullPointerException.class)
                .hasRootCause(bug)
                .hasMessage("worker 0 could not start its member");
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
        DevCertificates certs = TestCerts.get();
        try {
            Throwable t = catchThrowable(() -> {
                WorkerMain.Launch launch = WorkerMain.start(new String[] {"--id", "0", "--threads", "1",
                    "--cluster", "c", "--key-store", certs.memberStore("worker").toString(),
                    "--trust-store", certs.trustStore().toString(), "--seed", "127.0.0.1:25520",
                    "--port", Integer.toString(port)}, Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD));
                if (launch != null) {
                    launch.worker().close();
                }
            });
            assertThat(taker.get()).as("the hook took the port").isNotNull();
            assertThat(t).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("cannot listen on 127.0.0.1:" + port + " (")
                    .hasMessageEndingWith("choose another with --port");
            assertThat(t.getMessage()).doesNotContain("\n");
        } finally {
            if (taker.get() != null) {
                taker.get().close();
            }
        }
    }
}
