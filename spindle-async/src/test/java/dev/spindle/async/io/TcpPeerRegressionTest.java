/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.TestExecutor;
import dev.spindle.testkit.ChildJvm;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found playing a hostile or demanding TCP peer against the streams
 * (review-before-after.txt of session 30): each test failed on the code before its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpPeerRegressionTest {

    /** Size of the heap buffers written and read: four times the child's direct memory limit. */
    static final int HUGE = 32 << 20;

    /**
     * A write from (or read into) a heap buffer handed the whole buffer to the channel, and the
     * JDK copies a heap buffer's whole remainder through a temporary direct buffer of that size
     * (cached on the thread afterwards): a 32 MiB write failed with "Cannot reserve 33554432
     * bytes of direct buffer memory" under an 8 MiB direct memory limit, although the socket
     * takes a few hundred KiB at a time. Run in a child JVM with that limit.
     */
    @Test
    void aHeapBufferLargerThanDirectMemoryIsWrittenAndReadInPieces() throws Exception {
        String out = ChildJvm.run(HugeBufferChild.class, 45, "-Xmx192m", "-XX:MaxDirectMemorySize=8m");
        assertThat(out).as("child output").contains("WRITE OK " + HUGE).contains("READ OK " + (1 << 20));
    }

    /**
     * close() of a listener whose accept had registered it with the selector returned with the
     * port still bound and listening: the JDK closes a registered channel's socket only when its
     * selector next lets go of the key, on the selector thread's next turn. A server restarted on
     * the same port right after close() failed with "Address already in use" (about one restart
     * in ten here), and a client connecting in between was accepted by a listener said to be
     * closed.
     */
    @Test
    void aClosedListenersPortCanBeBoundAgainAtOnce() throws Exception {
        try (Reactor reactor = Reactor.open();
                AsyncRuntime runtime = AsyncRuntime.builder().workers(1).build()) {
            AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor);
            InetSocketAddress address = listener.localAddress();
            int refused = 0;
            for (int i = 0; i < 200; i++) {
                runtime.spawn(listener.accept());          // waits: the listener is registered
                while (!listener.registration().channel.isRegistered()) {
                    Thread.onSpinWait();
                }
                listener.close();
                try {
                    listener = AsyncTcpListener.bind(address, reactor);
                } catch (BindException inUse) {
                    refused++;
                    Thread.sleep(50);
                    listener = AsyncTcpListener.bind(address, reactor);
                }
            }
            listener.close();
            assertThat(refused).as("re-binds refused right after close(), of 200").isZero();
        }
    }

    private static byte pattern(long i) {
        return (byte) (i * 31 + (i >>> 9));
    }

    /** The child JVM of {@link #aHeapBufferLargerThanDirectMemoryIsWrittenAndReadInPieces}. */
    public static final class HugeBufferChild {
        public static void main(String[] args) throws Exception {
            try (Reactor reactor = Reactor.open();
                    AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor);
                    Socket client = new Socket()) {
                client.connect(listener.localAddress());
                TestExecutor ex = new TestExecutor();
                AsyncTcpStream server = ex.blockOn(listener.accept());
                // the client checks every byte it receives
                CompletableFuture<Long> received = CompletableFuture.supplyAsync(() -> {
                    try {
                        InputStream in = client.getInputStream();
                        byte[] b = new byte[1 << 16];
                        long total = 0;
                        for (int n; total < HUGE && (n = in.read(b)) > 0; ) {
                            for (int i = 0; i < n; i++) {
                                if (b[i] != pattern(total + i)) {
                                    return -(total + i);
                                }
                            }
                            total += n;
                        }
                        return total;
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                byte[] big = new byte[HUGE];
                for (int i = 0; i < HUGE; i++) {
                    big[i] = pattern(i);
                }
                try {
                    ex.blockOn(server.writeAll(ByteBuffer.wrap(big)));
                    System.out.println("WRITE OK " + received.get(30, TimeUnit.SECONDS));
                } catch (Throwable t) {
                    System.out.println("WRITE FAILED " + t);
                }
                int sent = 1 << 20;
                CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                    try {
                        OutputStream o = client.getOutputStream();
                        byte[] b = new byte[sent];
                        for (int i = 0; i < sent; i++) {
                            b[i] = pattern(i);
                        }
                        o.write(b);
                        o.flush();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                ByteBuffer dst = ByteBuffer.wrap(big);  // 32 MiB of heap to read into
                try {
                    while (dst.position() < sent) {
                        ex.blockOn(server.read(dst));
                    }
                    boolean same = true;
                    for (int i = 0; i < sent; i++) {
                        same &= big[i] == pattern(i);
                    }
                    System.out.println(same ? "READ OK " + dst.position() : "READ WRONG BYTES");
                } catch (Throwable t) {
                    System.out.println("READ FAILED " + t);
                }
                sending.get(30, TimeUnit.SECONDS);
                server.close();
            }
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
    }
}
