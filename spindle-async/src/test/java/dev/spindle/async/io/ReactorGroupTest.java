/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.TestExecutor;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ReactorGroupTest {

    @Test
    void nextGoesRoundTheReactorsInTurn() throws Exception {
        try (ReactorGroup g = ReactorGroup.open(3)) {
            List<Reactor> rs = g.reactors();
            assertThat(rs).hasSize(3).doesNotHaveDuplicates();
            List<Reactor> picked = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                picked.add(g.next());
            }
            assertThat(picked).containsExactly(rs.get(0), rs.get(1), rs.get(2), rs.get(0), rs.get(1), rs.get(2), rs.get(0));
        }
    }

    @Test
    void aListenerSpreadsItsConnectionsOverTheGroupAndEachEchoesExactly() throws Exception {
        try (ReactorGroup g = ReactorGroup.open(2);
                AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), g)) {
            TestExecutor ex = new TestExecutor();
            Set<Reactor> serving = new HashSet<>();
            int n = 4;
            List<AsyncTask<?>> clients = new ArrayList<>();
            List<byte[]> payloads = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] p = new byte[3000 + i];
                for (int k = 0; k < p.length; k++) {
                    p[k] = (byte) (k * 7 + i);
                }
                payloads.add(p);
                clients.add(TcpEchoTest.client(listener.localAddress(), p));
            }
            AsyncTask<Void> acceptAll = Async.loop(0, (Integer i) -> i == n
                    ? Async.ready(Async.Step.<Integer, Void>done(null))
                    : Async.map(listener.accept(), stream -> {
                        serving.add(stream.reactor());
                        ex.spawn(TcpEchoTest.echo(stream));
                        return Async.Step.<Integer, Void>next(i + 1);
                    }));
            List<Object> results = ex.blockOn(Async.map(Async.all(List.of(acceptAll, Async.all(clients))),
                    r -> (List<Object>) r.get(1)));
            for (int i = 0; i < n; i++) {
                assertThat((byte[]) results.get(i)).isEqualTo(payloads.get(i));
            }
            assertThat(serving).containsExactlyInAnyOrderElementsOf(g.reactors());
        }
    }

    @Test
    void badSizesAndClosingTheSharedGroupAreRefused() {
        assertThatThrownBy(() -> ReactorGroup.open(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one reactor");
        assertThatThrownBy(() -> ReactorGroup.shared().close())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("shared");
        assertThat(ReactorGroup.shared().reactors()).first().isSameAs(Reactor.shared());
        assertThat(ReactorGroup.shared().reactors())
                .hasSize(Math.max(1, Runtime.getRuntime().availableProcessors() / 4));
    }
}
