/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoLoadTest {

    private static final EchoLoad.Settings SHORT =
            new EchoLoad.Settings(3, 2, 64, Duration.ofMillis(50), Duration.ofMillis(300));

    @Test
    void aCorrectServerPassesAndEveryMeasuredRequestIsRecorded() throws Exception {
        try (FaultyEchoServer server = new FaultyEchoServer(FaultyEchoServer.Fault.NONE, 0)) {
            EchoLoad.Result r = EchoLoad.run(server.address(), SHORT);
            assertThat(r.checked()).isGreaterThanOrEqualTo(Math.max(3, r.requests()));
            assertThat(r.latencyNanos().getTotalCount()).isEqualTo(r.requests());
            assertThat(r.seconds()).isEqualTo(0.3);
            assertThat(r.requestsPerSecond()).isEqualTo(r.requests() / 0.3);
        }
    }

    /**
     * A run for a fault after more bytes than the first requests carry (3 connections of 64
     * bytes: 192): it goes on until the fault strikes and ends it, however slowly a loaded machine
     * gets there (the test's timeout bounds it). A 350 ms run could end with the first requests,
     * short of a fault after 200 bytes (one run in fifteen failed so beside a build).
     */
    private static final EchoLoad.Settings UNTIL_IT_STRIKES =
            new EchoLoad.Settings(3, 2, 64, Duration.ofMillis(50), Duration.ofMinutes(10));

    /**
     * Each fault, struck after so many echoed bytes, and what the failure must say. 200 bytes is
     * a few requests in.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "FLIP_A_BYTE    | 200  | wrong echo on connection",
        "FLIP_A_BYTE    | 1    | request 0: byte 0 of 64",
        "EXTRA_BYTE     | 200  | wrong echo on connection",
        "CLOSE_EARLY    | 200  | the server closed connection",
        "BYTE_AFTER_END | 0    | more bytes than it was sent",
        "STALL          | 100  | no echo for 2 s on 1 of",
    })
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void aBrokenServerFailsTheRun(FaultyEchoServer.Fault fault, long afterBytes, String message) throws Exception {
        // a stall is seen only once the limit has passed: the stalling server's run has a limit of
        // 2 s rather than sit out 10 (the others keep 10, which a loaded machine never reaches)
        EchoLoad.stallNanosForTests = fault == FaultyEchoServer.Fault.STALL
                ? TimeUnit.SECONDS.toNanos(2) : EchoLoad.STALL_NANOS;
        try (FaultyEchoServer server = new FaultyEchoServer(fault, afterBytes)) {
            EchoLoad.Settings settings = afterBytes > 3 * 64 ? UNTIL_IT_STRIKES : SHORT;
            assertThatThrownBy(() -> EchoLoad.run(server.address(), settings))
                    .isInstanceOf(EchoCheckException.class)
                    .hasMessageContaining(message);
        } finally {
            EchoLoad.stallNanosForTests = EchoLoad.STALL_NANOS;
        }
    }

    @Test
    void noServerIsAClearError() throws Exception {
        // A TCP socket that is bound but never listens holds its port, so connecting is refused
        // and no other process can take the port over between the close and the connect.
        try (Socket holder = new Socket()) {
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress gone = new InetSocketAddress(InetAddress.getLoopbackAddress(), holder.getLocalPort());
            assertThatThrownBy(() -> EchoLoad.run(gone, SHORT))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("connection 0 to " + gone + " failed");
        }
    }

    @Test
    void badSettingsNameTheValue() {
        Duration s = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new EchoLoad.Settings(0, 1, 64, s, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("connections must be between 1 and 10000, was 0");
        assertThatThrownBy(() -> new EchoLoad.Settings(1, 0, 64, s, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("client threads");
        assertThatThrownBy(() -> new EchoLoad.Settings(1, 1, 0, s, s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("payload bytes");
        assertThatThrownBy(() -> new EchoLoad.Settings(1, 1, 64, s.negated(), s))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("warmup must not be negative");
        assertThatThrownBy(() -> new EchoLoad.Settings(1, 1, 64, s, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("measured period");
        assertThatThrownBy(() -> new EchoLoad.Settings(1, 1, 64, null, s))
                .isInstanceOf(NullPointerException.class).hasMessage("warmup");
    }
}
