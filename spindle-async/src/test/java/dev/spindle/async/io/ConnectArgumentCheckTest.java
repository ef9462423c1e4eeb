/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.ChildJvm;
import java.net.SocketAddress;
import org.junit.jupiter.api.Test;

/**
 * The one-argument {@code connect} (and {@code bind}) checks its address before it asks for the JVM-wide reactor
 * group: a null or non-TCP address must fail with the exception its Javadoc names and nothing
 * else, not start the shared group's selector threads (which then run for the life of the JVM)
 * on the way. Run in a child JVM, since the group is made once per JVM and another test of this
 * one may have made it already.
 */
class ConnectArgumentCheckTest {

    @Test
    void aConnectToANullOrNonTcpAddressStartsNoSharedReactor() throws Exception {
        String out = ChildJvm.run(Child.class, 45);
        assertThat(out)
                .contains("null: java.lang.NullPointerException: remote")
                .contains("not tcp: java.lang.IllegalArgumentException: not a TCP address")
                .contains("reactor threads: 0");
    }

    @Test
    void aBindToANonTcpAddressStartsNoSharedReactor() throws Exception {
        String out = ChildJvm.run(BindChild.class, 45);
        assertThat(out)
                .contains("not tcp: java.lang.IllegalArgumentException: not a TCP address")
                .contains("reactor threads: 0");
    }

    /** Binds to a non-TCP address, then counts the reactor threads. */
    static final class BindChild {
        public static void main(String[] args) throws Exception {
            try {
                AsyncTcpListener.bind(new SocketAddress() { }).close();
                System.out.println("not tcp: no exception");
            } catch (RuntimeException e) {
                System.out.println("not tcp: " + e);
            }
            System.out.println("reactor threads: " + Child.reactorThreads());
        }
    }

    /** Connects to a null and to a non-TCP address, then counts the reactor threads. */
    static final class Child {
        public static void main(String[] args) {
            try {
                AsyncTcpStream.connect(null);
                System.out.println("null: no exception");
            } catch (RuntimeException e) {
                System.out.println("null: " + e);
            }
            try {
                AsyncTcpStream.connect(new SocketAddress() { });
                System.out.println("not tcp: no exception");
            } catch (RuntimeException e) {
                System.out.println("not tcp: " + e);
            }
            System.out.println("reactor threads: " + reactorThreads());
        }

        static long reactorThreads() {
            return Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("spindle-async-reactor"))
                    .count();
        }
    }
}
