/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.UnixOperatingSystemMXBean;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A console that cannot bind: it says why, and leaves nothing behind. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleBindFailureTest {

    private static final int ATTEMPTS = 40;

    /**
     * A second console on a port a first one holds fails, naming the address, as it should; but
     * the JDK's {@code HttpServer.create} opens its listening channel before it binds and does
     * not close it when the bind fails, so each such start kept an open file descriptor until
     * the JVM exited: an application that tries port after port, or retries a taken one, runs
     * out of descriptors.
     */
    @Test
    void aConsoleOnATakenPortFailsClearlyAndKeepsNoFileDescriptor() throws Exception {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        assumeTrue(os instanceof UnixOperatingSystemMXBean, "no count of open file descriptors here");
        UnixOperatingSystemMXBean unix = (UnixOperatingSystemMXBean) os;
        try (Console first = Console.builder().withoutToken().start()) {
            int port = first.address().getPort();
            assertThatThrownBy(() -> Console.builder().port(port).start())
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining("127.0.0.1:" + port);
            long before = unix.getOpenFileDescriptorCount();
            for (int i = 0; i < ATTEMPTS; i++) {
                try {
                    Console.builder().withoutToken().port(port).start().close();
                } catch (UncheckedIOException taken) {
                    // expected: the port is the first console's
                }
            }
            long after = unix.getOpenFileDescriptorCount();
            // a few descriptors may come and go meanwhile (a class loaded from a jar); one per attempt may not stay
            assertThat(after - before).as("file descriptors still open after %d failed starts", ATTEMPTS)
                    .isLessThan(ATTEMPTS / 2);
            assertThat(ConsoleTest.get(first.uri()).statusCode()).as("the first console").isEqualTo(200);
        }
    }
}
