/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The load generator joined its client threads in the order it started them, so a failure on
 * the second thread was seen only once the first had run its whole measured period: a server
 * that broke a connection a second into a ten-minute run failed it ten minutes later. The first
 * failure of any client thread now ends the run at once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EchoLoadEndsAtTheFirstFailureTest {

    /** Echoes on the first connection it accepts; closes every later one after its first request, unanswered. */
    private static final class FirstOnlyServer implements AutoCloseable {
        final ServerSocket listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        final List<Socket> open = new CopyOnWriteArrayList<>();

        FirstOnlyServer() throws IOException {
            Thread acceptor = new Thread(this::accept, "first-only-accept");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void accept() {
            try {
                Socket first = listener.accept();
                open.add(first);
                Thread echo = new Thread(() -> echo(first), "first-only-echo");
                echo.setDaemon(true);
                echo.start();
                while (true) {
                    Socket later = listener.accept();
                    later.getInputStream().readNBytes(64);   // the whole first request: then a clean close, no reset
                    later.close();
                }
            } catch (IOException closed) {
                // the listener was closed
            }
        }

        private static void echo(Socket s) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                for (int b; (b = in.read()) >= 0; ) {
                    out.write(b);
                }
            } catch (IOException gone) {
                // the client went away, or the server closed
            }
        }

        InetSocketAddress address() {
            return (InetSocketAddress) listener.getLocalSocketAddress();
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket s : open) {
                s.close();
            }
        }
    }

    @Test
    void aFailureOnTheSecondClientThreadEndsALongRun() throws Exception {
        // connection 0 (client thread 0) is served to the end; connection 1 (client thread 1) is
        // closed by the server once its first request arrived. The class timeout is far below the run's
        // measured period: only a run that ends at the failure passes.
        try (FirstOnlyServer server = new FirstOnlyServer()) {
            EchoLoad.Settings tenMinutes = new EchoLoad.Settings(2, 2, 64, Duration.ZERO, Duration.ofMinutes(10));
            assertThatThrownBy(() -> EchoLoad.run(server.address(), tenMinutes))
                    .isInstanceOf(EchoCheckException.class)
                    .hasMessageContaining("the server closed connection 1");
        }
    }
}
