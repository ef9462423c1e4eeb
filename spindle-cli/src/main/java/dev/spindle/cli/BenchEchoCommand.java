/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.echo.EchoHarness;
import dev.spindle.bench.echo.EchoReport;
import dev.spindle.bench.echo.EchoServers;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code spindle bench echo}: TCP echo servers on Spindle, Netty and virtual threads under the same load. */
@Command(name = "echo",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = {
            "Runs a TCP echo server on Spindle's AsyncRuntime (AsyncTcpListener/AsyncTcpStream, a task per"
                    + " connection; 'spindle': selector threads, 'spindle-io-workers': selectors driven by the"
                    + " runtime's idle workers), on Netty's NIO event loops and, on JDK 21+, on a virtual thread per connection,"
                    + " each with --workers threads, under the same closed-loop loopback load: --connections"
                    + " connections, each sending a --payload-byte request and waiting for the whole echo before"
                    + " the next.",
            "Servers are interleaved round by round. Prints requests/s (median of the rounds), p50/p99/p99.9"
                    + " latency and each server's throughput relative to Netty's and to the virtual threads'"
                    + " (> 1 means faster). Every echoed byte is checked: a wrong echo fails the run."
                    + " With --forks N, each server's ratios to Netty and to the virtual threads and its p99 latency"
                    + " relative to Netty's, per JVM and their median.",
            "Servers: ${sys:spindle.bench.echo.servers}. The client runs on the same machine, so on few cores"
                    + " it competes with the server for CPU; compare ratios rather than absolute figures.",
        })
final class BenchEchoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--servers", split = ",", paramLabel = "ID",
            description = "Comma-separated servers to compare (default: all). Valid: ${sys:spindle.bench.echo.servers}.")
    List<String> servers;

    @Option(names = "--connections", paramLabel = "N",
            description = "Concurrent client connections, one request in flight each (default: ${DEFAULT-VALUE}).")
    int connections = EchoHarness.DEFAULT_CONNECTIONS;

    @Option(names = "--seconds", paramLabel = "S",
            description = "Measured seconds per server per round (default: ${DEFAULT-VALUE}).")
    double seconds = EchoHarness.DEFAULT_SECONDS;

    @Option(names = "--settle", paramLabel = "S",
            description = "Unmeasured seconds at the start of each run, on its fresh connections (default: ${DEFAULT-VALUE}).")
    double settle = EchoHarness.DEFAULT_SETTLE_SECONDS;

    @Option(names = "--payload", paramLabel = "BYTES",
            description = "Bytes per request (default: ${DEFAULT-VALUE}).")
    int payload = EchoHarness.DEFAULT_PAYLOAD_BYTES;

    @Option(names = "--client-threads", paramLabel = "N",
            description = "Client threads driving the connections (default: half the processors, at least 1: ${DEFAULT-VALUE}).")
    int clientThreads = EchoHarness.Options.defaultClientThreads();

    @Mixin
    RoundOptions options;

    @Mixin
    Forks.Count forks;

    static {
        System.setProperty("spindle.bench.echo.servers", String.join(", ", EchoServers.ids()));
    }

    @Override
    public Integer call() {
        BenchCommand.refuseOptionsBefore(spec);
        options.validate(spec, EchoHarness.DEFAULT_ROUNDS, EchoHarness.DEFAULT_WARMUP_ROUNDS);
        EchoHarness.Options o = new EchoHarness.Options();
        RoundOptions.asUsageError(spec, () -> {
            if (servers != null) {
                o.servers(servers);
            }
            o.workers(options.workers).rounds(options.rounds).warmupRounds(options.warmup);
        });
        RoundOptions.asUsageError(spec, "--connections", () -> o.connections(connections));
        RoundOptions.asUsageError(spec, "--seconds", () -> o.seconds(seconds));
        RoundOptions.asUsageError(spec, "--settle", () -> o.settleSeconds(settle));
        RoundOptions.asUsageError(spec, "--payload", () -> o.payloadBytes(payload));
        RoundOptions.asUsageError(spec, "--client-threads", () -> o.clientThreads(clientThreads));
        forks.validate(spec);
        if (forks.forks > 1) {
            return Forks.run(spec, forks.forks, Forks.ECHO, options.json, options.progressDisplay(spec));
        }
        o.progress(options.progressDisplay(spec));
        EchoReport report = new EchoHarness(o).run();
        options.print(spec, report::toTable, report::toJson);
        return 0;
    }
}
