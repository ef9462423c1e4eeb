/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.io.AsyncTcpListener;
import dev.spindle.pool.WorkStealingPool;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the README examples (and docs/OBSERVABILITY.md's) that finish quickly on their own and
 * checks what the READMEs say they print, and the echo server's handler against real
 * connections. The echo server's {@code main} (it runs until killed) and the Hazelcast
 * coordinator are only compiled.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ReadmeExamplesTest {

    /** What {@code main} prints, one line per element. */
    private interface Main {
        void run() throws Exception;
    }

    private static String[] stdoutOf(Main main) throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            main.run();
        } finally {
            System.setOut(saved);
        }
        return bytes.toString(StandardCharsets.UTF_8).split("\\R");
    }

    @Test
    void theMetersAndTheConsoleOfTheReadmeBindAndStart() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("fib").build();
                AsyncRuntime runtime = AsyncRuntime.builder().workers(1).name("io").build();
                dev.spindle.actor.ActorSystem system = dev.spindle.actor.ActorSystem.builder().name("app").build();
                dev.spindle.cluster.LocalCluster cluster = dev.spindle.cluster.LocalCluster.builder().workers(1).build()) {
            pool.invoke(() -> 1);
            io.micrometer.core.instrument.MeterRegistry registry = MetricsExample.bind(pool, runtime, system, cluster);
            // a worker counts its task just after publishing the result: invoke may return first
            var completed = registry.get("spindle.pool.tasks.completed").tag("pool", "fib").functionCounter();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (completed.count() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertThat(completed.count()).isEqualTo(1);
            assertThat(registry.get("spindle.async.workers").tag("runtime", "io").gauge().value()).isEqualTo(1);
            assertThat(registry.get("spindle.actor.live").tag("system", "app").gauge().value()).isZero();
            assertThat(registry.get("spindle.cluster.workers").tag("cluster", "graph").gauge().value()).isEqualTo(1);
            assertThat(stdoutOf(() -> MetricsExample.console(pool, runtime, system))[0])
                    .matches("console at http://127\\.0\\.0\\.1:\\d+/\\?token=[A-Za-z0-9_-]{32}");
        }
    }

    @Test
    void fibPrints832040() throws Exception {
        assertThat(stdoutOf(() -> Fib.main(new String[0]))[0]).isEqualTo("832040");
    }

    @Test
    void theComputeTaskFibComputes832040() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            assertThat(ComputeTaskExample.fib30(pool)).isEqualTo(832040L);
        }
    }

    @Test
    void theBlockingSnippetHandlesTheLine() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            BufferedReader reader = new BufferedReader(new StringReader("spindle\n"));
            assertThat(BlockingExample.readAndHandle(pool, reader).join()).isEqualTo(7);
        }
    }

    @Test
    void theSchedulersAndActorsSnippetsRun() {
        new SchedulersExample().run();
        ActorsExample.run();
    }

    /** docs/OBSERVABILITY.md's task statistics: on from the build, and nothing live to list yet. */
    @Test
    void theTaskStatisticsSnippetTurnsThemOn() {
        try (AsyncRuntime rt = TaskStatisticsExample.run()) {
            assertThat(rt.taskStatisticsEnabled()).isTrue();
            assertThat(rt.busiestTasks(10).longestPolls()).isEmpty();
        }
    }

    @Test
    void theLocalClusterSnippetPrints21() throws Exception {
        assertThat(stdoutOf(() -> LocalClusterExample.main(new String[0]))).containsExactly("21");
    }

    /** The README's echo handler, behind the README's accept loop on an ephemeral port. */
    @Test
    void theEchoHandlerEchoesEveryByteUntilTheClientCloses() throws Exception {
        byte[] big = new byte[100_000];
        new Random(1).nextBytes(big);
        try (AsyncRuntime runtime = AsyncRuntime.builder().workers(2).build();
                AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0))) {
            runtime.spawn(Async.whileTrue(() -> Async.map(listener.accept(), stream -> {
                runtime.spawn(EchoServerExample.echo(stream));
                return true;
            })));
            for (byte[] sent : List.of("hello".getBytes(StandardCharsets.UTF_8), big, new byte[] {0})) {
                assertThat(roundTrip(listener.localAddress(), sent)).isEqualTo(sent);
            }
        }
    }

    /** Writes {@code sent} (on another thread, so neither side's buffers can fill), then reads to the end. */
    private static byte[] roundTrip(InetSocketAddress server, byte[] sent) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(server, 10_000);
            socket.setSoTimeout(20_000);
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    socket.getOutputStream().write(sent);
                    socket.shutdownOutput();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            byte[] echoed = socket.getInputStream().readAllBytes();   // until the server closes
            writer.get(20, TimeUnit.SECONDS);
            return echoed;
        }
    }
}
