/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deliberately broken echo server for the load generator's tests: a platform thread per
 * connection that echoes faithfully except for one {@link Fault}, which strikes once, after
 * {@code afterBytes} bytes have been echoed on all connections together ({@link Fault#NONE}: a
 * correct server, the control).
 */
final class FaultyEchoServer implements EchoServer {

    enum Fault {
        NONE,
        /** One byte of one echo inverted. */
        FLIP_A_BYTE,
        /** One byte sent twice. */
        EXTRA_BYTE,
        /** A connection closed in the middle of an echo. */
        CLOSE_EARLY,
        /** A byte sent once more after the client's end of stream. */
        BYTE_AFTER_END,
        /** The rest of one echo held back. */
        STALL
    }

    private final Fault fault;
    private final long afterBytes;
    private final AtomicLong echoed = new AtomicLong();
    private final ServerSocket listener;
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    FaultyEchoServer(Fault fault, long afterBytes) throws IOException {
        this.fault = fault;
        this.afterBytes = afterBytes;
        listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "faulty-echo-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept() {
        try {
            while (true) {
                Socket s = listener.accept();
                open.add(s);
                Thread t = new Thread(() -> serve(s), "faulty-echo");
                t.setDaemon(true);
                t.start();
            }
        } catch (IOException closed) {
            // the listener was closed
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            int b;
            while ((b = in.read()) >= 0) {
                boolean strike = echoed.incrementAndGet() == afterBytes;
                if (strike && fault == Fault.FLIP_A_BYTE) {
                    b = ~b;
                } else if (strike && fault == Fault.EXTRA_BYTE) {
                    out.write(b);
                } else if (strike && fault == Fault.CLOSE_EARLY) {
                    return;
                } else if (strike && fault == Fault.STALL) {
                    Thread.sleep(Long.MAX_VALUE);
                }
                out.write(b);
            }
            if (fault == Fault.BYTE_AFTER_END) {
                out.write(0);
            }
        } catch (IOException | InterruptedException e) {
            // the client went away, or the server closed
        }
    }

    @Override
    public String id() {
        return "faulty-" + fault;
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    @Override
    public void close() {
        try {
            listener.close();
            for (Socket s : open) {
                s.close();
            }
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
