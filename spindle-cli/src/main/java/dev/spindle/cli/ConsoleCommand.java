/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import dev.spindle.async.Async;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import dev.spindle.cluster.Client;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.cluster.Restrictions;
import dev.spindle.cluster.TaskSpec;
import dev.spindle.cluster.WorkerCommandLine;
import dev.spindle.console.Console;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code spindle console}: a demo workload (a fork/join pool, actors on a work-sharing pool, an
 * async runtime with a long-polling and a much-woken task, and an in-process cluster whose tasks
 * start on one worker and are stolen) shown
 * in the live console, whose URL it prints. Runs until Ctrl-C, or for {@code --duration}.
 *
 * <p>The console is this JVM's only HTTP server, so the command also sets the JDK server's
 * JVM-wide limits ({@link #HTTP_SERVER_LIMITS}), each unless given with {@code -D}.
 */
@Command(name = "console",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = "Starts a demo workload and the live web console over it, prints the console's URL and runs"
                + " until Ctrl-C (or for --duration seconds). The console listens on 127.0.0.1 unless --bind says"
                + " otherwise, and requires an access token, which the URL carries: --token, else a random one"
                + " (--no-token serves a loopback address without one, for every user of this machine).")
final class ConsoleCommand implements Callable<Integer> {

    /**
     * The JDK HTTP server's JVM-wide limits this command sets (the console bounds its own queue,
     * threads and request time; these bound what it cannot see): at most 64 open connections; a
     * request head within 10 s, and a new connection that sends nothing closed after 10 s; an idle
     * keep-alive connection closed after 30 s, at most 16 kept. Not
     * {@code sun.net.httpserver.maxRspTime}: it would end every event stream after that time.
     */
    static final Map<String, String> HTTP_SERVER_LIMITS = Map.of(
            "jdk.httpserver.maxConnections", "64",
            "sun.net.httpserver.maxReqTime", "10",
            "sun.net.httpserver.idleInterval", "30",
            "sun.net.httpserver.maxIdleConnections", "16");

    @Spec
    CommandSpec spec;

    @Option(names = "--port", paramLabel = "PORT", description = "Port (default: ${DEFAULT-VALUE}: a free one).")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String bind = "127.0.0.1";

    /** Where the access token is read from when {@code --token} is not given, out of sight of {@code ps}. */
    static final String TOKEN_ENV = "SPINDLE_CONSOLE_TOKEN";

    @Option(names = "--token", paramLabel = "TOKEN",
            description = "Access token (16+ characters of A-Z a-z 0-9 - _ . ~); else the environment variable "
                    + TOKEN_ENV + " (a command line is visible to every user of the machine, in ps); else made at"
                    + " random (unless --no-token).")
    String token;

    /**
     * Without a token, a console on loopback is readable by every user of the machine (any local
     * process can connect to 127.0.0.1), which sees the application's task names and class
     * names: so a token is made unless this says otherwise, as notebook servers do.
     */
    @Option(names = "--no-token",
            description = "Serve without an access token (loopback --bind only): every user of this machine can"
                    + " then read the console.")
    boolean noToken;

    @Option(names = "--duration", paramLabel = "SECONDS",
            description = "Stop after this many seconds (default: ${DEFAULT-VALUE}: run until Ctrl-C).")
    int duration;

    /** The token to use: {@code option} if given, else {@link #TOKEN_ENV} if set and not blank, else null. */
    static String token(String option, Map<String, String> env) {
        if (option != null) {
            return option;
        }
        String fromEnv = env.get(TOKEN_ENV);
        return fromEnv == null || fromEnv.isBlank() ? null : fromEnv.strip();
    }

    @Override
    public Integer call() throws Exception {
        if (duration < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be 0 or more, was " + duration);
        }
        // read once, when the JDK's first HTTP server starts: before the console does
        HTTP_SERVER_LIMITS.forEach((key, value) -> {
            if (System.getProperty(key) == null) {
                System.setProperty(key, value);
            }
        });
        if (bind.isBlank()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--bind must name an address, was '" + bind + "'");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--bind: no such address: " + e.getMessage());
        }
        if (port < 0 || port > 65535) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--port must be between 0 and 65535, was " + port);
        }
        Console.Builder settings = Console.builder().port(port).bindAddress(address);
        String given = token(token, System.getenv());
        if (noToken) {
            if (token != null) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--no-token and --token contradict each other");
            }
            if (given != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--no-token, but the environment variable "
                        + TOKEN_ENV + " gives a token: unset it, or leave --no-token out");
            }
            if (!address.isLoopbackAddress()) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--no-token is for a loopback --bind only;"
                        + " " + bind + " is reachable from other machines");
            }
            settings.withoutToken();
        } else if (given != null) {
            try {
                settings.token(given);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        (token != null ? "--token" : "the environment variable " + TOKEN_ENV) + ": " + e.getMessage());
            }
        } else {
            settings.token(Console.randomToken());
        }
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stop = new CountDownLatch(1);
        // the console first: a port that is taken (or an address this machine does not have)
        // fails before the demo's runtimes start, which were started and closed again for nothing
        try (Console console = listening(settings);
                WorkStealingPool pool = WorkStealingPool.builder().name("fork-join").build();
                WorkSharingPool actorPool = WorkSharingPool.builder().workers(2).name("actors").build();
                ActorSystem actors = ActorSystem.builder().name("actors").scheduler(actorPool).build();
                AsyncRuntime async = AsyncRuntime.builder().workers(2).spawnSites(true).name("async").build();
                LocalCluster cluster = LocalCluster.builder().workers(3).threadsPerWorker(2)
                        .balanceInterval(Duration.ofMillis(50)).build()) {
            console.register("fork-join", pool::stats).register("actor pool", actorPool::stats)
                    .register("actors", actors).register("async", async).register("cluster", cluster);
            Thread load = new Thread(() -> drive(pool, actors, async, cluster, stop), "spindle-console-demo");
            load.setDaemon(true);
            load.start();
            out.println("Spindle console: " + console.uri());
            out.println(duration == 0 ? "Ctrl-C stops it." : "Stops after " + duration + " s.");
            out.flush();
            if (duration == 0) {
                stop.await();                  // Ctrl-C ends the JVM
            } else {
                stop.await(duration, TimeUnit.SECONDS);
            }
            stop.countDown();
            load.join(5_000);
        }
        return 0;
    }

    /**
     * Starts the console; a port that is taken, or an address this machine does not have, is a
     * usage error naming {@code --port} or {@code --bind}, as a worker launcher reports it
     * ({@link WorkerCommandLine#cannotListen}): the user chooses another. It failed as a run
     * (status 1). The console's own bind is the check, so no port can be taken between the two.
     */
    private Console listening(Console.Builder settings) {
        try {
            return settings.start();
        } catch (UncheckedIOException e) {
            BindException bind = WorkerCommandLine.bindFailure(e);
            if (bind == null) {
                throw e;
            }
            throw new CommandLine.ParameterException(spec.commandLine(),
                    WorkerCommandLine.cannotListen(this.bind, port, bind));
        }
    }

    /**
     * An async task that never completes and is polled each time the demo wakes it; each poll
     * blocks its worker for {@code pollMillis} (a task that should yield and does not, for the
     * console's "longest polls" table).
     */
    static final class WakeMe implements AsyncTask<Void> {
        private final long pollMillis;
        private final AtomicReference<Waker> waker = new AtomicReference<>();

        WakeMe(long pollMillis) {
            this.pollMillis = pollMillis;
        }

        @Override
        public Poll<Void> poll(Context cx) {
            waker.set(cx.waker());
            if (pollMillis > 0) {
                try {
                    Thread.sleep(pollMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Poll.pending();
        }

        void wake() {
            Waker w = waker.get();
            if (w != null) {
                w.wake();
            }
        }
    }

    /** A paced load, so the demo shows movement without taking every core. */
    private static void drive(WorkStealingPool pool, ActorSystem actors, AsyncRuntime async, LocalCluster cluster,
            CountDownLatch stop) {
        ActorRef<long[]> counter = actors.spawn(() -> new long[1]);
        Client client = cluster.client();
        WakeMe slow = new WakeMe(15);
        WakeMe chatty = new WakeMe(0);
        async.spawn(slow);
        async.spawn(chatty);
        int round = 0;
        try {
            while (!stop.await(40, TimeUnit.MILLISECONDS)) {
                pool.invoke(() -> DemoCommand.fib(pool, 20));
                for (int i = 0; i < 500; i++) {
                    counter.tell(c -> c[0]++);
                }
                for (int i = 0; i < 50; i++) {
                    async.spawn(Async.then(Async.yieldNow(), x -> Async.ready(1)));
                }
                slow.wake();                   // once a round: its polls top "longest polls"
                for (int i = 0; i < 20; i++) {
                    chatty.wake();             // twenty times a round: it tops "most wake-ups"
                }
                if (round % 25 == 0) {         // a burst of slow tasks on worker 0, for the thieves
                    for (int i = 0; i < 24; i++) {
                        client.submit(TaskSpec.builder("task-" + round + "-" + i, args -> {
                            Thread.sleep(40);
                            return 1;
                        }).restrictions(Restrictions.loose(Set.of(0))).build());
                    }
                }
                round++;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // the runtimes closed under the load at the end: stop
        }
    }
}
