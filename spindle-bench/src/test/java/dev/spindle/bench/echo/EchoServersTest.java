/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoServersTest {

    static java.util.List<String> ids() {
        return EchoServers.ids();
    }

    private static EchoServer openOrSkip(String id, int workers) {
        assumeTrue(EchoServers.unavailableReason(id) == null, id + " cannot run on this JVM");
        return EchoServers.open(id, workers);
    }

    @ParameterizedTest
    @MethodSource("ids")
    void echoesEveryByteUnderTheLoadGenerator(String id) {
        try (EchoServer server = openOrSkip(id, 2)) {
            assertThat(server.id()).isEqualTo(id);
            assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
            EchoLoad.Result r = EchoLoad.run(server.address(),
                    new EchoLoad.Settings(4, 2, 64, Duration.ofMillis(50), Duration.ofMillis(300)));
            assertThat(r.checked()).isGreaterThanOrEqualTo(4);   // every connection's first echo at least
        }
    }

    @ParameterizedTest
    @MethodSource("ids")
    void echoesRequestsLargerThanTheSocketBuffers(String id) {
        try (EchoServer server = openOrSkip(id, 1)) {
            EchoLoad.Result r = EchoLoad.run(server.address(),
                    new EchoLoad.Settings(3, 1, 300_000, Duration.ZERO, Duration.ofMillis(300)));
            assertThat(r.checked()).isGreaterThanOrEqualTo(3);
        }
    }

    @ParameterizedTest
    @MethodSource("ids")
    void closeEndsOpenConnectionsAndStopsListening(String id) throws Exception {
        EchoServer server = openOrSkip(id, 2);
        try (Socket s = new Socket(server.address().getAddress(), server.address().getPort())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(42);
            assertThat(in.read()).isEqualTo(42);      // accepted and served
            server.close();
            server.close();                             // idempotent
            int end;
            try {
                end = in.read();
            } catch (SocketException reset) {
                end = -1;
            }
            assertThat(end).isEqualTo(-1);
        }
        assertThatThrownBy(() -> new Socket(server.address().getAddress(), server.address().getPort()).close())
                .isInstanceOf(java.net.ConnectException.class);
    }

    @Test
    void virtualThreadsNeedJdk21() {
        if (Runtime.version().feature() >= 21) {
            assertThat(EchoServers.unavailableReason(EchoServers.VIRTUAL_THREADS)).isNull();
        } else {
            assertThat(EchoServers.unavailableReason(EchoServers.VIRTUAL_THREADS)).isEqualTo("needs JDK 21+");
            assertThatThrownBy(() -> EchoServers.open(EchoServers.VIRTUAL_THREADS, 1))
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("JDK 21+");
        }
        assertThat(EchoServers.unavailableReason(EchoServers.SPINDLE)).isNull();
        assertThat(EchoServers.unavailableReason(EchoServers.NETTY)).isNull();
    }

    @Test
    void nettyEpollRunsWhereItsNativeTransportLoadsAndSaysWhyNotElsewhere() {
        boolean linuxX86 = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux")
                && java.util.List.of("amd64", "x86_64").contains(System.getProperty("os.arch"));
        String reason = EchoServers.unavailableReason(EchoServers.NETTY_EPOLL);
        if (linuxX86) {
            assertThat(reason).as("the linux-x86_64 native transport is a dependency").isNull();
            assertThat(EchoServers.description(EchoServers.NETTY_EPOLL, 2)).contains("EpollIoHandler");
        } else {
            assertThat(reason).startsWith("Netty's native epoll transport does not load here");
            assertThatThrownBy(() -> EchoServers.open(EchoServers.NETTY_EPOLL, 1))
                    .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("netty-epoll");
        }
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> EchoServers.open("tomcat", 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown echo server 'tomcat'; valid: spindle, spindle-io-workers, netty, netty-epoll, virtual-threads");
        assertThatThrownBy(() -> EchoServers.open(EchoServers.NETTY, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("workers must be at least 1, was 0");
        assertThatThrownBy(() -> EchoServers.description(null, 1)).isInstanceOf(NullPointerException.class)
                .hasMessage("id");
    }
}
