/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import dev.spindle.async.*;
import dev.spindle.async.io.*;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/** README.md, "Async tasks and I/O": compiled only, since the server runs until killed. */
final class EchoServerExample {
    private EchoServerExample() {
    }

    static AsyncTask<Void> echo(AsyncTcpStream s) {
        ByteBuffer buf = ByteBuffer.allocate(4096);
        return Async.recover(Async.whileTrue(() -> Async.then(s.read(buf), n -> {   // pending until bytes arrive
            if (n < 0) {                               // the client closed: so do we
                s.close();
                return Async.ready(false);
            }
            buf.flip();
            return Async.map(s.writeAll(buf), x -> {
                buf.clear();
                return true;
            });
        })), error -> {                                // reset by the client: close ours too
            s.close();
            return null;
        });
    }

    public static void main(String[] args) throws Exception {
        try (AsyncRuntime runtime = AsyncRuntime.builder().workers(4).build();
                AsyncTcpListener listener = AsyncTcpListener.bind(    // this machine only
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 7007))) {
            runtime.run(Async.whileTrue(() -> Async.recover(Async.map(listener.accept(), stream -> {
                runtime.spawn(echo(stream));               // one task per connection
                return true;
            }), error -> listener.isOpen())));             // a failed accept costs one connection, not the server
        }
    }
}
