/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/**
 * {@code spindle console --port P} with P taken fails before the demo's runtimes start. It
 * started the fork/join pool, the actor pool and system, the async runtime and a three-worker
 * in-process cluster (a thread or more each, every processor's worth for the fork/join pool),
 * and only then found that the console could not listen, and closed them all again.
 *
 * <p>It is a usage error (status 2, one line naming the option to change), as a worker
 * launcher's taken port is: the user chooses another port, or another address where
 * {@code --bind} names one this machine does not have. It failed as a run, status 1.
 */
class ConsolePortTakenStartsNothingTest {

    /**
     * Fewer threads than the demo's runtimes start even on one processor (two actor pool workers,
     * two async workers, three cluster workers of two threads each, a fork/join worker), with room
     * for a thread the JVM or a previous test class may start meanwhile.
     */
    private static final long FEWER_THAN_THE_DEMOS_THREADS = 6;

    @Test
    void aTakenPortStartsNoRuntime() throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            long before = threads.getTotalStartedThreadCount();
            CliOutcome r = CliOutcome.run("console", "--port", Integer.toString(taken.getLocalPort()), "--duration", "1");
            long started = threads.getTotalStartedThreadCount() - before;
            assertThat(r.exit()).as(r.err()).isEqualTo(2);
            assertThat(r.err().lines().findFirst().orElse(""))
                    .startsWith("spindle console: cannot listen on 127.0.0.1:" + taken.getLocalPort() + " (")
                    .endsWith("): is another process using the port? choose another with --port");
            assertThat(r.out()).isEmpty();
            assertThat(started).as("threads started").isLessThan(FEWER_THAN_THE_DEMOS_THREADS);
        }
    }

    /** 192.0.2.1 is TEST-NET-1 (RFC 5737): documentation's, no machine's. */
    @Test
    void anAddressOfAnotherMachineIsAUsageErrorNamingBind() throws IOException {
        assumeTrue(NetworkInterface.getByInetAddress(InetAddress.getByName("192.0.2.1")) == null,
                "this machine has 192.0.2.1");
        CliOutcome r = CliOutcome.run("console", "--bind", "192.0.2.1", "--duration", "1");
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err().lines().findFirst().orElse(""))
                .startsWith("spindle console: cannot listen on 192.0.2.1:0 (")
                .endsWith("): is 192.0.2.1 an address of this machine? choose another with --bind");
        assertThat(r.out()).isEmpty();
    }
}
