/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.pool.WorkSharingPool;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a console leaves behind when it is closed with pages still open, what it logs, what it shows. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleThirdReviewRegressionTest {

    @Test
    void closingWithOpenStreamsEndsThemAndLeavesNoThreadAndFreesThePort() throws Exception {
        Console console = Console.builder().withoutToken().maxClients(2).interval(Duration.ofMillis(100)).start();
        int port = console.address().getPort();
        List<Socket> pages = new ArrayList<>();
        try {
            pages.add(openStream(console));
            pages.add(openStream(console));
            console.close();
            for (Socket page : pages) {
                assertThat(readToEnd(page)).as("a stream open when the console closed ends").isTrue();
            }
        } finally {
            for (Socket page : pages) {
                page.close();
            }
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!consoleThreads().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(consoleThreads()).as("console threads alive after close").isEmpty();
        try (Console again = Console.builder().withoutToken().port(port).start()) {
            assertThat(again.address().getPort()).isEqualTo(port);
        }
    }

    /**
     * A {@code HEAD} request (curl -I, a monitoring probe) was refused with a 405 whose body
     * length the console passed to {@code sendResponseHeaders}: the JDK's server logs a warning
     * for that on every {@code HEAD}, so any client that can connect (before the token is even
     * looked at) wrote two lines to the application's log per request.
     */
    @Test
    void aHeadRequestIsRefusedWithoutAWarningInTheApplicationsLog() throws Exception {
        Logger jdkServer = Logger.getLogger("com.sun.net.httpserver");
        List<String> warnings = new CopyOnWriteArrayList<>();
        Handler record = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        jdkServer.addHandler(record);
        try (Console console = Console.builder().withoutToken().start()) {
            int port = console.address().getPort();
            for (String path : new String[] {"/", "/snapshot", "/nowhere"}) {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(("HEAD " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    assertThat(head(s.getInputStream())).as("HEAD " + path).startsWith("HTTP/1.1 405")
                            .containsIgnoringCase("Allow: GET");
                }
            }
            try (Socket s = new Socket("127.0.0.1", port)) {
                s.setSoTimeout(10_000);
                s.getOutputStream().write(("GET /snapshot HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                assertThat(head(s.getInputStream())).as("GET after the HEADs").startsWith("HTTP/1.1 200");
            }
        } finally {
            jdkServer.removeHandler(record);
        }
        assertThat(warnings).as("warnings the JDK's server logged").isEmpty();
    }

    /**
     * The busy share of a worker is read from the CPU clock of the thread named
     * {@code <scheduler>-worker-<index>}. Two schedulers may carry one name (nothing makes names
     * unique), and then one thread was picked for both: each scheduler's worker showed the same
     * thread's share, one of them another scheduler's, with nothing to tell it was wrong. Here
     * one pool's worker spins and the other's sleeps, and both showed one figure.
     */
    @Test
    void twoSchedulersOfOneNameShowNoBusyShareRatherThanEachOthers() throws Exception {
        assumeTrue(ManagementFactory.getThreadMXBean().isThreadCpuTimeSupported(), "no thread CPU clock here");
        CountDownLatch stop = new CountDownLatch(1);
        try (WorkSharingPool spinning = WorkSharingPool.builder().workers(1).name("twin").build();
                WorkSharingPool idle = WorkSharingPool.builder().workers(1).name("twin").build();
                WorkSharingPool alone = WorkSharingPool.builder().workers(1).name("alone").build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start();
                AutoCloseable release = stop::countDown) {     // closed first: the pools' close waits for the spin
            spinning.execute(() -> {
                while (stop.getCount() > 0) {
                    Thread.onSpinWait();
                }
            });
            console.register("spinning", spinning::stats).register("idle", idle::stats).register("alone", alone::stats);
            String sample = console.latest();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // two readings of each worker: the rates are numbers from then on
            while ((!sample.contains("\"name\":\"alone\"") || sample.contains("\"donePerSec\":null"))
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
                sample = console.latest();
            }
            assertThat(busy(sample, "spinning")).as("busy share of the spinning pool's worker in %s", sample)
                    .isEqualTo("null");
            assertThat(busy(sample, "idle")).as("busy share of the idle pool's worker in %s", sample)
                    .isEqualTo("null");
            assertThat(busy(sample, "alone")).as("busy share of a pool whose name is its own in %s", sample)
                    .isNotEqualTo("null");
        }
    }

    /** The same when the second scheduler of the name starts after the first one's threads were read. */
    @Test
    void aSchedulerNamedLikeOneAlreadyShownMakesBothShowNoBusyShare() throws Exception {
        assumeTrue(ManagementFactory.getThreadMXBean().isThreadCpuTimeSupported(), "no thread CPU clock here");
        try (WorkSharingPool first = WorkSharingPool.builder().workers(1).name("twin-later").build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register("first", first::stats);
            String sample = awaitRates(console, "first");
            assertThat(busy(sample, "first")).as("busy share of the only pool of its name in %s", sample)
                    .isNotEqualTo("null");
            try (WorkSharingPool second = WorkSharingPool.builder().workers(1).name("twin-later").build()) {
                console.register("second", second::stats);
                sample = awaitRates(console, "second");
                assertThat(busy(sample, "first")).as("busy share of the first pool's worker in %s", sample)
                        .isEqualTo("null");
                assertThat(busy(sample, "second")).as("busy share of the second pool's worker in %s", sample)
                        .isEqualTo("null");
            }
        }
    }

    /** The first sample that shows source {@code name} with rates (its second reading); fails after 20 s. */
    private static String awaitRates(Console console, String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String sample = console.latest();
        while (!sample.contains("\"name\":\"" + name + "\"") || sample.contains("\"donePerSec\":null")) {
            assertThat(System.nanoTime() < deadline).as("a sample with rates of %s: %s", name, sample).isTrue();
            Thread.sleep(20);
            sample = console.latest();
        }
        return sample;
    }

    /** The {@code busy} figure of the one worker of the source named {@code name} in a sample. */
    private static String busy(String sample, String name) {
        Matcher m = Pattern.compile("\"name\":\"" + name + "\".*?\"busy\":([^,]+),").matcher(sample);
        assertThat(m.find()).as("source %s in %s", name, sample).isTrue();
        return m.group(1);
    }

    /** The status line and headers of an answer, up to the empty line. */
    private static String head(InputStream in) throws Exception {
        StringBuilder sb = new StringBuilder();
        while (sb.indexOf("\r\n\r\n") < 0) {
            int c = in.read();
            if (c == -1) {
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }

    private static List<String> consoleThreads() {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith("spindle-console")) {
                names.add(t.getName());
            }
        }
        return names;
    }

    /** Reads until the end of the stream; false if it does not come within 10 s. */
    private static boolean readToEnd(Socket s) throws Exception {
        s.setSoTimeout(10_000);
        InputStream in = s.getInputStream();
        byte[] buf = new byte[8192];
        try {
            while (in.read(buf) >= 0) {
                // the rest of the stream
            }
            return true;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (java.net.SocketException reset) {
            return true;
        }
    }

    private static Socket openStream(Console console) throws Exception {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", console.address().getPort()), 5000);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: 127.0.0.1:" + console.address().getPort()
                + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (head.indexOf("data: ") < 0) {
            int c = in.read();
            if (c == -1) {
                throw new AssertionError("stream closed: " + head);
            }
            head.append((char) c);
        }
        assertThat(head.toString()).startsWith("HTTP/1.1 200");
        return s;
    }
}
