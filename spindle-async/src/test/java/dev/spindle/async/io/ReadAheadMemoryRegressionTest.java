/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.TestExecutor;
import dev.spindle.testkit.ChildJvm;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * A long-lived server that serves many short connections one after another (open, send a few
 * bytes, close). Each stream's 16 KiB direct read-ahead buffer went back only when the garbage
 * collector found the stream unreachable; the JDK's direct-memory reservation rescues that with a
 * {@code System.gc()}, which {@code -XX:+DisableExplicitGC} (a common production flag) turns into
 * a no-op. Then, with a small {@code -XX:MaxDirectMemorySize}, connections failed with "no direct
 * memory for the read-ahead buffer" long before the heap was collected, each failure stalling the
 * selector thread in the JDK's retry loop, though at most one connection was open at a time. Run
 * in a child JVM with that flag and a 256 KiB limit (16 buffers).
 */
class ReadAheadMemoryRegressionTest {

    private static final int CONNECTIONS = 400;

    @Test
    void closedStreamsGiveTheirReadAheadBufferBack() throws Exception {
        String out = ChildJvm.run(Child.class, 30, "-Xmx64m", "-XX:MaxDirectMemorySize=256k", "-XX:+DisableExplicitGC");
        assertThat(out).as("child output").contains("ALL " + CONNECTIONS + " CONNECTIONS READ");
    }

    /** The child JVM of {@link #closedStreamsGiveTheirReadAheadBufferBack}. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Reactor reactor = Reactor.open();
            TestExecutor ex = new TestExecutor();
            try (AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor)) {
                for (int i = 0; i < CONNECTIONS; i++) {
                    try (Socket client = new Socket()) {
                        client.connect(listener.localAddress());
                        AsyncTcpStream server = ex.blockOn(listener.accept());
                        ByteBuffer dst = ByteBuffer.allocate(64);
                        try {
                            // the read waits (arming the read-ahead); the bytes that arrive
                            // make the selector thread allocate the stream's buffer
                            OutputStream out = client.getOutputStream();
                            Thread sender = new Thread(() -> {
                                try {
                                    Thread.sleep(1);
                                    out.write(new byte[] {1, 2, 3});
                                } catch (Exception e) {
                                    // the read below fails and reports it
                                }
                            });
                            sender.start();
                            int n = ex.blockOn(server.read(dst));
                            sender.join();
                            if (n <= 0) {
                                System.out.println("connection " + i + ": read " + n);
                                break;
                            }
                        } catch (Throwable t) {
                            System.out.println("connection " + i + " failed: " + t + ", cause: " + t.getCause());
                            break;
                        } finally {
                            server.close();
                        }
                    }
                    if (i == CONNECTIONS - 1) {
                        System.out.println("ALL " + CONNECTIONS + " CONNECTIONS READ");
                    }
                }
            }
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
    }
}
