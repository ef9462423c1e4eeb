/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.spindle.SchedulerStats;
import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.cluster.ClusterView;
import dev.spindle.internal.observe.BoundedReads;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A live web console: one page, served by the JDK's own HTTP server
 * ({@code com.sun.net.httpserver}), that shows the schedulers, actor systems and clusters an
 * application registers, updated every second over server-sent events.
 *
 * <pre>{@code
 * try (Console console = Console.builder().start()) {       // 127.0.0.1, an ephemeral port
 *     console.register("fib", pool::stats);                  // any pool
 *     console.register("io", runtime);                       // an AsyncRuntime, with its busiest tasks
 *     console.register("actors", system);
 *     System.out.println("console at " + console.uri());
 *     ...
 * }
 * }</pre>
 *
 * <p>For each scheduler the page shows per worker its busy share (the CPU time of its thread
 * over the interval), queue depth, and tasks done, steals and parks per second; for an actor
 * system its message and dead-letter rates and live actors; for a cluster each worker's
 * occupancy (tasks processing over threads) and the steal events as they happen; for an async
 * runtime registered as one, also its tasks with the longest polls and the most wake-ups. A
 * source whose read has not returned within a second (or the interval, if longer) is shown as not
 * answering until it does, and the others go on being shown.
 * Everything the
 * page needs (HTML, CSS, a small script drawing on canvas) is in this jar; it fetches nothing
 * else.
 *
 * <h2>Exposure</h2>
 *
 * <p>The console binds to 127.0.0.1 by default, and every request must present an access token:
 * a random one unless the application gives its own ({@link Builder#token}). The page's URL,
 * {@link #uri()}, carries it, and the page passes it on. Loopback is no boundary between the users
 * of a machine, nor between the containers of a pod that share its network: without a token any
 * of them could read the console (task names, errors, spawn sites). {@link Builder#withoutToken()}
 * serves a loopback address without one, where every local process is trusted; any other address
 * (a wildcard included) always requires a token. Only {@code GET} is served, with
 * no request body, a bounded request target and a fixed set of paths, and never to a page of
 * another site ({@code Origin}, {@code Sec-Fetch-Site}; see {@code Requests}), with one
 * exception: the page's URL, {@link #uri()}, clicked as a link in another site's page (a
 * notebook, a dashboard on another port printing it) opens the page. A browser marks that
 * request {@code cross-site} or {@code same-site}; it is served when it is a top-level
 * navigation ({@code Sec-Fetch-Mode: navigate}, {@code Sec-Fetch-Dest: document}) to {@code /}
 * with the right token in its query, which proves the user was given the URL. The page then
 * loaded asks only its own origin (script, style, event stream, each with the token in its query),
 * and its answer's {@code Cross-Origin-Opener-Policy: same-origin} cuts it off from the page that
 * opened it. Everything else of another site stays refused (403) with the token or without: its
 * event streams, fetches, frames, other paths, and such a navigation without the token, with a
 * wrong one or to a console {@linkplain Builder#withoutToken() without one} (nothing then
 * tells the user's link from one any site wrote: open its address directly);
 * at most {@link Builder#maxClients} event streams are open at once (503 beyond), and at most
 * {@link Builder#maxConnectionsPerAddress} connections of one client address are served at once
 * (503 beyond, whatever the request), so that one client cannot take every stream and thread
 * from the others. Requests are
 * handled by {@code maxClients + 4} daemon threads behind a queue of 16: a connection that finds
 * the queue full is closed unanswered, so a flood waits in no unbounded queue. Every request but
 * an event stream must be read and answered within {@link Builder#requestTimeout} (each write of
 * an event stream, too), or its connection is closed: a client sending half a request, or not
 * reading its answer, holds a thread no longer than that. (A connection still sending its request
 * head is not counted against its address: the JDK's server reads the head, on one of these
 * threads, before the console sees the connection, and tells no one the address until then. So
 * one client that sends heads slowly can hold every thread, each connection up to this deadline,
 * and open the next as each is closed, whatever {@code maxConnectionsPerAddress}; only the
 * deadline, the queue and the JDK's own limits below bound it. Where untrusted clients can
 * connect, put a proxy that limits each client in front.)
 *
 * <p>An event stream finds out that its client has gone by writing to it (a sample, or a
 * heartbeat each second without one). A client that closed its connection (a closed tab, even a
 * killed browser: its system closes the connection) frees its stream slot and its address's count
 * within a second or two. One that vanished without a word (its network gone, a NAT that dropped
 * the connection) is not told apart from a slow reader: its writes go into the socket's send
 * buffer, unacknowledged, until the buffer is full, and the next write then blocks past
 * {@link Builder#requestTimeout} and ends the stream; or the system gives up retransmitting first
 * (on Linux about 15 minutes by default, {@code net.ipv4.tcp_retries2}) and the write fails. Until
 * then that stream counts against {@link Builder#maxClients} and its address: a client that comes
 * back from the same address may be refused (503, {@code Retry-After}) while the dead streams
 * hold its address's last slots. Samples of some kilobytes a second fill a send buffer of tens of
 * kilobytes in seconds to a minute; with a long {@link Builder#interval} and small samples it
 * takes the system's timeout.
 *
 * <p>The JDK's server has further limits, JVM-wide system properties read once when its first
 * server starts (so not set by this class): {@code jdk.httpserver.maxConnections} (open
 * connections of all servers; no limit by default), {@code sun.net.httpserver.idleInterval}
 * (seconds an idle keep-alive connection, or a new one that has sent nothing, stays open; 30 by
 * default), {@code sun.net.httpserver.maxIdleConnections} (200 by default) and
 * {@code sun.net.httpserver.maxReqTime} (seconds to receive a request; no limit by default).
 * {@code sun.net.httpserver.maxRspTime} would end every event stream after that many seconds.
 * The {@code spindle console} command sets the first four for its own JVM. The request head's
 * size is bounded by the JDK's server alone, before the console sees it:
 * {@code sun.net.httpserver.maxReqHeaders} (200 header lines by default) and
 * {@code sun.net.httpserver.maxReqHeaderSize} (380 KiB by default, request line included), in
 * the JDK builds that have them (the JDK 17 and 25 builds the tests run on do); a build without
 * them reads a head of any size, until {@link Builder#requestTimeout}.
 *
 * <p>Paths: {@code /} the page, {@code /app.js}, {@code /app.css}, {@code /events} the event
 * stream (one JSON object per sample), {@code /snapshot} the latest sample as JSON.
 */
public final class Console implements AutoCloseable {

    private static final Map<String, String[]> STATIC = Map.of(
            "/", new String[] {"index.html", "text/html; charset=utf-8"},
            "/app.js", new String[] {"app.js", "text/javascript; charset=utf-8"},
            "/app.css", new String[] {"app.css", "text/css; charset=utf-8"});

    /**
     * The longest an event stream goes without a write: a peer that has gone is noticed only by
     * writing to it, and its slot is kept until then.
     */
    private static final long HEARTBEAT_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** What an event stream writes when no sample came within {@link #HEARTBEAT_NANOS}: an SSE comment. */
    private static final byte[] HEARTBEAT = ":\n\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * The most samples an event stream that fell behind sends at once, the newest: a sample
     * carries a cluster's steal events and task runs logged since the one before, once, so a
     * stream that sent only the latest lost those of every sample taken while it was still
     * writing (a slow link, a short interval). A stream further behind loses the older ones.
     * Each is written on its own, under the deadline of one write.
     */
    static final int BACKLOG = 16;

    /**
     * The longest {@link #close()} waits for the console's threads to end: a source's supplier
     * stuck in a call that ignores interrupts keeps the sampler past it.
     */
    static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * The longest a sample waits for one source, unless the interval is longer: a source still
     * reading then is shown as not answering, and the sample goes on with the others.
     */
    static final long STUCK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final System.Logger LOG = System.getLogger(Console.class.getName());

    /** Tests only: run on an event stream's thread before each of its writes. */
    static volatile Runnable beforeStreamWrite;

    private final HttpServer server;
    private final HandlerPool handlers;
    private final ScheduledExecutorService sampler;
    private final Semaphore streams;
    private final PerAddress perAddress;
    private final String token;
    private final long intervalMillis;
    private final Map<String, Source> sources = new LinkedHashMap<>();
    private final ThreadCpu cpu = new ThreadCpu();
    private final Object tickLock = new Object();
    private final Map<String, byte[]> resources = new LinkedHashMap<>();
    private long tick;
    private String latest = "{\"sources\":[]}";
    /** Sample {@code t} at {@code recent[t % BACKLOG]}, for the last {@link #BACKLOG} ticks; guarded by tickLock. */
    private final String[] recent = new String[BACKLOG];
    private volatile boolean closed;
    /** The sampler's thread, for {@link #close()} to wait for. */
    private volatile Thread samplerThread;
    /**
     * The threads that read the sources, one source at a time, for the sampler: one, unless a
     * source got stuck in its read (each stuck read keeps its thread, the next read gets another);
     * each source's read waited for at most {@link #stuckNanos}, one in flight at a time.
     */
    private final BoundedReads readers;
    /** How long a sample waits for one source: {@link #STUCK_NANOS}, or the interval if longer. */
    private final long stuckNanos;
    /** When the next sample is due, on {@link System#nanoTime()}; the sampler thread's alone. */
    private long nextSampleNanos;

    private Console(Builder b) throws IOException {
        this.token = b.noToken ? null : b.token != null ? b.token : AccessToken.random();
        this.intervalMillis = b.interval.toMillis();
        this.streams = new Semaphore(b.maxClients);
        this.perAddress = new PerAddress(b.maxConnectionsPerAddress);
        this.recent[0] = latest;
        for (String[] r : STATIC.values()) {
            resources.put(r[0], resource(r[0]));
        }
        if (token != null) {
            // the page's own script and style are fetched by relative URLs, without the page's
            // query: give them the token (URL-safe characters only, so safe in an attribute)
            String page = new String(resources.get("index.html"), StandardCharsets.UTF_8)
                    .replace("src=\"app.js\"", "src=\"app.js?token=" + token + "\"")
                    .replace("href=\"app.css\"", "href=\"app.css?token=" + token + "\"");
            resources.put("index.html", page.getBytes(StandardCharsets.UTF_8));
        }
        InetSocketAddress address = new InetSocketAddress(b.bindAddress, b.port);
        refuseIfUnbindable(address);
        this.server = HttpServer.create(address, 32);
        // an event stream holds its thread; a few more serve the page alongside the most streams
        this.handlers = new HandlerPool("spindle-console-http", b.maxClients + 4, b.requestTimeout.toNanos());
        ThreadFactory samplers = HandlerPool.daemon("spindle-console-sampler");
        this.sampler = Executors.newSingleThreadScheduledExecutor(r -> samplerThread = samplers.newThread(r));
        this.stuckNanos = Math.max(STUCK_NANOS, TimeUnit.MILLISECONDS.toNanos(intervalMillis));
        this.readers = new BoundedReads("spindle-console-reader", stuckNanos);
        Requests requests = new Requests(token == null ? null : AccessToken.of(token), server.getAddress().getPort(),
                hostOf(server.getAddress().getAddress()));
        server.createContext("/", ex -> handle(ex, requests));
        server.setExecutor(handlers);
        server.start();
        this.nextSampleNanos = System.nanoTime();
        sampler.execute(this::tick);
    }

    /**
     * A builder: port 0 (ephemeral) on 127.0.0.1, a random access token (see {@link #uri()}),
     * 8 event streams, 6 connections per client address, one sample a second, 10 s for a request.
     *
     * @return a builder with those defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts a console with the defaults of {@link #builder()}.
     *
     * @return the running console, on 127.0.0.1 and a free port
     * @throws UncheckedIOException if it cannot bind
     */
    public static Console start() {
        return builder().start();
    }

    /** {@return a new random access token: 32 URL-safe characters from {@link java.security.SecureRandom}} */
    public static String randomToken() {
        return AccessToken.random();
    }

    /** Settings of a {@link Console}. */
    public static final class Builder {
        private int port;
        private InetAddress bindAddress = InetAddress.getLoopbackAddress();
        private String token;
        /** {@link #withoutToken()} was called (and no {@link #token} after it). */
        private boolean noToken;
        private int maxClients = 8;
        private int maxConnectionsPerAddress = 6;
        private Duration interval = Duration.ofSeconds(1);
        private Duration requestTimeout = Duration.ofSeconds(10);

        private Builder() {
        }

        /**
         * The port; 0 (the default) picks a free one, see {@link Console#uri()}.
         *
         * @param port the TCP port, 0 to 65535
         * @return this builder
         * @throws IllegalArgumentException if not in {@code 0..65535}
         */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be in [0, 65535], was " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * The address to listen on; 127.0.0.1 by default. Any address that is not a loopback
         * address needs a token (not {@link #withoutToken()}).
         *
         * @param address the local address to bind; a wildcard address binds them all
         * @return this builder
         * @throws NullPointerException if {@code address} is null
         */
        public Builder bindAddress(InetAddress address) {
            this.bindAddress = Objects.requireNonNull(address, "bindAddress");
            return this;
        }

        /**
         * The access token every request must present (query parameter {@code token} or
         * {@code Authorization: Bearer}), instead of the random one made by default: give one
         * that scripts know in advance. Use {@link Console#randomToken()} for a good one.
         * Cancels {@link #withoutToken()}. The page passes it in its requests' query
         * (a browser's {@code EventSource} sends no header), and the JDK's HTTP server logs each
         * request line, query included, at debug level ({@code FINE} on the
         * {@code com.sun.net.httpserver} logger): keep that logger above debug where the log is
         * read by others, or script the console with the header instead.
         *
         * @param token the secret, 16 to 256 URL-safe characters
         * @return this builder
         * @throws IllegalArgumentException if shorter than 16 or longer than 256 characters, or
         *     holding characters other than {@code A-Z a-z 0-9 - _ . ~}
         * @throws NullPointerException if {@code token} is null
         */
        public Builder token(String token) {
            AccessToken.of(Objects.requireNonNull(token, "token"));
            this.token = token;
            this.noToken = false;
            return this;
        }

        /**
         * Serves without an access token: every process of this machine that can reach the
         * loopback address can read the console (every user's, and every container's sharing
         * the network). For a machine and network namespace the application has to itself;
         * a loopback bind address only. Cancels {@link #token}.
         *
         * @return this builder
         */
        public Builder withoutToken() {
            this.token = null;
            this.noToken = true;
            return this;
        }

        /**
         * The most event streams (open pages) served at once; 8 by default.
         *
         * @param maxClients the number of streams, 1 to 256; the console runs 4 threads more
         * @return this builder
         * @throws IllegalArgumentException if not in {@code 1..256}
         */
        public Builder maxClients(int maxClients) {
            if (maxClients < 1 || maxClients > 256) {
                throw new IllegalArgumentException("maxClients must be in [1, 256], was " + maxClients);
            }
            this.maxClients = maxClients;
            return this;
        }

        /**
         * The most connections from one client address served at once: its open event streams
         * and its requests being answered, counted from when the request head has been read (a
         * connection still sending it, or idle between requests, is not counted: see the class
         * comment). Beyond that a request is answered 503 with {@code Retry-After}, so one client
         * cannot hold every event stream and every thread while the others are refused. 6 by
         * default: a browser opens at most 6 connections to one host, all its tabs together.
         * Clients behind one proxy or NAT share an address: raise it for them. Every loopback
         * address (127.0.0.0/8, ::1) counts as one, or a local process could take every stream
         * from as many of them. An event stream
         * whose client vanished without closing its connection (its network gone) counts until
         * a write to it blocks past {@link #requestTimeout} or fails (see the class comment), and
         * a client coming back from the same address meanwhile may find its address's slots
         * taken.
         *
         * @param max the number of connections, 1 to 1024
         * @return this builder
         * @throws IllegalArgumentException if not in {@code 1..1024}
         */
        public Builder maxConnectionsPerAddress(int max) {
            if (max < 1 || max > 1024) {
                throw new IllegalArgumentException("maxConnectionsPerAddress must be in [1, 1024], was " + max);
            }
            this.maxConnectionsPerAddress = max;
            return this;
        }

        /**
         * How often the console samples and pushes; one second by default. An interval longer
         * than a second is also how long a sample waits for a source's read before it shows the
         * source as not answering (a second otherwise): a sample is due only once per interval,
         * so a source slower than a second is still shown when samples are that far apart, and
         * a sample in which a source gets stuck is sent up to one interval late (per such
         * source). The samples due while one waited are not made up: the next comes half an
         * interval after it ends, or on time if that is later, so rates always run over at least
         * half an interval.
         *
         * @param interval the time between samples, 50 ms to one minute
         * @return this builder
         * @throws IllegalArgumentException if not between 50 ms and one minute
         * @throws NullPointerException if {@code interval} is null
         */
        public Builder interval(Duration interval) {
            Objects.requireNonNull(interval, "interval");
            // compared as durations: toMillis() throws ArithmeticException for a huge one
            if (interval.compareTo(Duration.ofMillis(50)) < 0 || interval.compareTo(Duration.ofMinutes(1)) > 0) {
                throw new IllegalArgumentException("interval must be between 50 ms and 1 min, was " + interval);
            }
            this.interval = interval;
            return this;
        }

        /**
         * The longest a request other than an event stream may take, from the moment a handler
         * thread takes its connection (reading the request head included) to the last byte of
         * the answer; also the longest one write of an event stream may block. A slower
         * exchange has its connection closed. 10 s by default.
         *
         * @param timeout the time allowed, 100 ms to 10 min
         * @return this builder
         * @throws IllegalArgumentException if not between 100 ms and 10 min
         * @throws NullPointerException if {@code timeout} is null
         */
        public Builder requestTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "requestTimeout");
            // compared as durations: toMillis() throws ArithmeticException for a huge one
            if (timeout.compareTo(Duration.ofMillis(100)) < 0 || timeout.compareTo(Duration.ofMinutes(10)) > 0) {
                throw new IllegalArgumentException("requestTimeout must be between 100 ms and 10 min, was " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * Binds and starts the console.
         *
         * @return the running console; {@link Console#uri()} says where
         * @throws IllegalArgumentException if the bind address is not a loopback address and
         *     {@link #withoutToken()} was called
         * @throws UncheckedIOException if the address cannot be bound
         */
        public Console start() {
            if (!bindAddress.isLoopbackAddress() && noToken) {
                throw new IllegalArgumentException("binding " + bindAddress.getHostAddress()
                        + " (not a loopback address) requires an access token: leave withoutToken() out");
            }
            try {
                return new Console(this);
            } catch (IOException e) {
                throw new UncheckedIOException("could not start the console on " + bindAddress.getHostAddress()
                        + ":" + port + ": " + e.getMessage(), e);
            }
        }
    }

    // ------------------------------------------------------------------ registration

    /**
     * Shows a scheduler: pass its {@code stats} method, e.g. {@code pool::stats} for any pool of
     * {@code dev.spindle.pool} or {@code runtime::stats} for an async runtime. Registering a name
     * again replaces what it showed.
     *
     * @param name the heading it is shown under, 1 to 200 characters, not blank; unique among
     *     what is registered
     * @param stats reads the scheduler's counters, on the console's sampler thread
     * @return this console
     * @throws IllegalArgumentException if {@code name} is blank or longer than 200 characters
     * @throws IllegalStateException if the console is closed
     * @throws NullPointerException if an argument is null
     */
    public Console register(String name, Supplier<SchedulerStats> stats) {
        return add(new SchedulerSource(checkName(name), Objects.requireNonNull(stats, "stats")));
    }

    /**
     * Shows an async runtime: its workers, as {@link #register(String, Supplier)} with
     * {@code runtime::stats} does, and the tables of its tasks with the longest polls and the most
     * wake-ups (the top ten of each, from
     * {@link AsyncRuntime#busiestTasks}). Turns the runtime's task statistics on
     * ({@link AsyncRuntime#enableTaskStatistics()}), which stay on; tasks spawned before show
     * from their next poll on, without a spawn site.
     *
     * @param name the heading it is shown under, 1 to 200 characters, not blank; unique among
     *     what is registered
     * @param runtime the async runtime
     * @return this console
     * @throws IllegalArgumentException if {@code name} is blank or longer than 200 characters
     * @throws IllegalStateException if the console is closed
     * @throws NullPointerException if an argument is null
     */
    public Console register(String name, AsyncRuntime runtime) {
        String checked = checkName(name);
        Objects.requireNonNull(runtime, "runtime");
        ensureOpen();                     // before turning the statistics on for nothing
        runtime.enableTaskStatistics();
        return add(new AsyncSource(checked, runtime));
    }

    /**
     * Shows an actor system (messages, dead letters, live actors). Register its scheduler too
     * to see its workers.
     *
     * @param name the heading it is shown under, 1 to 200 characters, not blank; unique among
     *     what is registered
     * @param system the actor system
     * @return this console
     * @throws IllegalArgumentException if {@code name} is blank or longer than 200 characters
     * @throws IllegalStateException if the console is closed
     * @throws NullPointerException if an argument is null
     */
    public Console register(String name, ActorSystem system) {
        return add(new ActorSource(checkName(name), Objects.requireNonNull(system, "system")));
    }

    /**
     * Shows a cluster (worker occupancy, steal events): a {@code LocalCluster}, a
     * {@code ClusterCoordinator}, or a transport's coordinator ({@code HazelcastCoordinator},
     * {@code PekkoCoordinator}). A closed cluster is shown as closed.
     *
     * @param name the heading it is shown under, 1 to 200 characters, not blank; unique among
     *     what is registered
     * @param cluster the cluster, or its coordinator
     * @return this console
     * @throws IllegalArgumentException if {@code name} is blank or longer than 200 characters
     * @throws IllegalStateException if the console is closed
     * @throws NullPointerException if an argument is null
     */
    public Console register(String name, ClusterView cluster) {
        return add(new ClusterSource(checkName(name), Objects.requireNonNull(cluster, "cluster")));
    }

    /**
     * Stops showing what was registered under {@code name}; nothing if nothing was.
     *
     * @param name the name it was registered under
     * @return this console
     */
    public Console unregister(String name) {
        synchronized (sources) {
            sources.remove(name);
        }
        return this;
    }

    private static String checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isBlank() || name.length() > 200) {
            throw new IllegalArgumentException("name must be 1 to 200 characters and not blank");
        }
        return name;
    }

    private Console add(Source source) {
        ensureOpen();
        synchronized (sources) {
            sources.put(source.name(), source);
        }
        return this;
    }

    /**
     * Refuses a registration once the console is closed: it would be kept and never shown, and a
     * caller that registers on a console it thinks is running is better told at once. (A register
     * racing close() may still be kept unshown, as one just before it would be.)
     */
    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("console on " + server.getAddress() + " is closed: nothing registered");
        }
    }

    // ------------------------------------------------------------------ addresses

    /** {@return the address the console listens on, with the port it got} */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /**
     * The page's URL, with the access token as its query unless it serves
     * {@linkplain Builder#withoutToken() without one}: keep it private. A wildcard bind address
     * is shown as the loopback address. A script finds the token in its query
     * ({@code token=...}) and may send it as {@code Authorization: Bearer} instead.
     *
     * @return the URL to open in a browser
     */
    public URI uri() {
        InetSocketAddress a = server.getAddress();
        return URI.create("http://" + hostOf(a.getAddress()) + ":" + a.getPort() + "/"
                + (token == null ? "" : "?token=" + token));
    }

    /** The host part of {@link #uri()} for a bound address; a wildcard is shown as loopback. */
    private static String hostOf(InetAddress bound) {
        InetAddress host = bound.isAnyLocalAddress() ? InetAddress.getLoopbackAddress() : bound;
        return host instanceof Inet6Address ? "[" + host.getHostAddress() + "]" : host.getHostAddress();
    }

    // ------------------------------------------------------------------ sampling

    /**
     * The sampler's task: one sample, then the next scheduled. Samples are due one interval
     * apart, but not closer than half an interval after the end of the one before: a sample that
     * waited a second for a stuck source would otherwise be followed by the ten samples a 100 ms
     * interval had due meanwhile, back to back (as {@code scheduleAtFixedRate} makes up missed
     * runs), each reading its sources microseconds after the last, so that a counter read in
     * milliseconds' steps showed a rate of 0 or of ten times the truth.
     */
    private void tick() {
        try {
            sample();
        } finally {
            long intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
            long end = System.nanoTime();
            nextSampleNanos += intervalNanos;
            if (nextSampleNanos - end < intervalNanos / 2) {
                nextSampleNanos = end + intervalNanos / 2;     // the ones due meanwhile are skipped
            }
            if (!closed) {
                try {
                    sampler.schedule(this::tick, nextSampleNanos - end, TimeUnit.NANOSECONDS);
                } catch (RejectedExecutionException shutDown) {
                    // close() shut the sampler down after the check: no next sample
                }
            }
        }
    }

    /**
     * One sample of every source, on the sampler thread (or a test's); a failing source shows its
     * error. Each source is read on a reader thread while this one waits, at most
     * {@link #stuckNanos}: a source whose read has not returned by then (a stats supplier stuck in
     * a call, a coordinator whose network is gone) is shown as not answering, and the others are
     * read on another thread, so one stuck source does not freeze the whole page. Until that read
     * returns the source is not read again (a source is read by one thread at a time) and each
     * sample shows it as not answering; what that read wrote is dropped (it is old by then) and not
     * {@linkplain Source#delivered() delivered}, so a cluster's log entries it held go with the
     * next. The wait is per stuck episode, not per sample: a sample waits for a source only when
     * it starts a read of it.
     *
     * <p>Called by one thread at a time: the sampler's, or a test's while the sampler waits out a
     * long interval. Two calls at once would share each source's read (see {@link BoundedReads}):
     * the second would send what the first one's read wrote, at the first one's time, and so a
     * cluster's log entries twice.
     */
    void sample() {
        List<Source> now;
        synchronized (sources) {
            now = List.copyOf(sources.values());
        }
        long nanos = System.nanoTime();
        synchronized (cpu) {
            cpu.nextSample();
        }
        StringBuilder sb = new StringBuilder(256 + 512 * now.size());
        sb.append('{');
        Json.field(sb, "time", System.currentTimeMillis());
        Json.field(sb, "intervalMillis", intervalMillis);
        Json.key(sb, "sources").append('[');
        List<Source> read = new ArrayList<>(now.size());
        for (Source s : now) {
            String one;
            try {
                one = read(s, nanos, read);
            } catch (InterruptedException | RejectedExecutionException closing) {
                // close(): the sample is dropped, as the sampler's thread ends
                if (closing instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            sb.append(one).append(',');
        }
        Json.close(sb, ']');
        Json.close(sb, '}');
        synchronized (tickLock) {
            latest = sb.toString();
            tick++;
            recent[(int) (tick % BACKLOG)] = latest;
            tickLock.notifyAll();
        }
        // after the sample is published: what a source passed on once is passed now
        for (Source s : read) {
            s.delivered();
        }
    }

    /**
     * {@code s}'s JSON object for this sample: what its read wrote, its error, or that it is not
     * answering (a read still running from an earlier sample, or one that outlasts the wait now).
     * A source whose read returned is added to {@code read}.
     */
    private String read(Source s, long nanos, List<Source> read) throws InterruptedException {
        BoundedReads.Outcome<String> outcome = readers.read(s.reads, () -> {
            StringBuilder own = new StringBuilder(512);
            // its own start for its rates: it may come a wait for a stuck source after the sample's
            s.sample(own, nanos, System.nanoTime(), cpu);
            return own.toString();
        });
        if (outcome.answersAgain()) {
            LOG.log(System.Logger.Level.INFO, "console: source \"" + s.name() + "\" answers again");
        }
        if (outcome.stuck()) {
            if (outcome.newlyStuck()) {
                LOG.log(System.Logger.Level.WARNING, "console: source \"" + s.name() + "\" has not answered in "
                        + TimeUnit.NANOSECONDS.toMillis(stuckNanos) + " ms; shown as not answering until it does");
            }
            // what it writes once it returns is dropped: old by then, and not delivered
            return notAnswering(s, outcome.stuckNanos());
        }
        Throwable failed = outcome.thrown();
        if (failed != null) {
            // an Error too (a class missing from the class path, an assertion), and a checked
            // exception no signature declares (a supplier in Kotlin): thrown out of the sampler
            // it would end the periodic sample for good, and every page would freeze
            return error(s, describe(failed));
        }
        read.add(s);
        return outcome.value();
    }

    private static String notAnswering(Source s, long forNanos) {
        return error(s, "not answering: its read has not returned for "
                + TimeUnit.NANOSECONDS.toMillis(forNanos) + " ms");
    }

    private static String error(Source s, String error) {
        StringBuilder sb = new StringBuilder(128);
        sb.append('{');
        Json.field(sb, "kind", "error");
        Json.field(sb, "name", s.name());
        Json.field(sb, "error", Source.clip(error));
        Json.close(sb, '}');
        return sb.toString();
    }

    /**
     * What a source threw, as {@code toString()} says; its class alone if that throws too (a
     * message computed from state it lacks) or returns null (a {@code toString()} that returns
     * its message, and it has none): thrown out of the sampler's catch, or cut to length as null,
     * it would end the periodic sample as surely as the error it reports.
     */
    private static String describe(Throwable e) {
        try {
            String said = e.toString();
            return said != null ? said : e.getClass().getName();
        } catch (RuntimeException | Error unspeakable) {
            return e.getClass().getName();
        }
    }

    /** The latest sample, as JSON. */
    String latest() {
        synchronized (tickLock) {
            return latest;
        }
    }

    // ------------------------------------------------------------------ requests

    private void handle(HttpExchange ex, Requests requests) throws IOException {
        InetAddress client = ex.getRemoteAddress().getAddress();
        boolean counted = false;
        try {
            if (closed) {
                return;
            }
            // before the checks of Requests: a client without the token must not hold more either
            counted = perAddress.enter(client);
            if (!counted) {
                ex.getResponseHeaders().set("Retry-After", "10");
                Requests.refuse(ex, 503, "too many connections from one address");
                return;
            }
            if (!requests.admit(ex)) {
                return;
            }
            String path = ex.getRequestURI().getRawPath();
            String[] r = STATIC.get(path);
            if (r != null) {
                Requests.send(ex, 200, r[1], resources.get(r[0]));
            } else if (path.equals("/snapshot")) {
                Requests.send(ex, 200, "application/json", latest().getBytes(StandardCharsets.UTF_8));
            } else if (path.equals("/events")) {
                stream(ex);
            } else {
                Requests.refuse(ex, 404, "not found");
            }
        } finally {
            try {
                ex.close();
            } finally {
                if (counted) {
                    perAddress.leave(client);
                }
            }
        }
    }

    /**
     * Pushes each new sample to one client until it goes away or the console closes: the latest
     * first, then every sample taken since the last write (up to {@link #BACKLOG}, the newest),
     * so that one taken while the stream was still writing is not skipped. The wait for
     * a sample is not bounded by the request deadline (streams are bounded by {@code maxClients});
     * each write is, so a client that stops reading loses its stream and frees its slot. Without
     * a new sample within a second it writes a comment, so a client that has closed its connection
     * frees its slot within a second or two, whatever the interval. A client that vanished without
     * closing it is found out only once the send buffer is full or the system gives up on the
     * connection (see the class comment): nothing the JDK's server shows tells it from a slow
     * reader.
     */
    private void stream(HttpExchange ex) throws IOException {
        if (!streams.tryAcquire()) {
            ex.getResponseHeaders().set("Retry-After", "10");
            Requests.refuse(ex, 503, "too many open consoles");
            return;
        }
        try {
            Requests.commonHeaders(ex, "text/event-stream; charset=utf-8");
            ex.sendResponseHeaders(200, 0);
            OutputStream out = ex.getResponseBody();
            out.write("retry: 2000\n\n".getBytes(StandardCharsets.UTF_8));
            out.flush();
            long seen = -1;
            while (!closed) {
                if (handlers.disarm()) {
                    return;                    // the deadline fired during the last write
                }
                List<String> data = null;
                synchronized (tickLock) {
                    long until = System.nanoTime() + HEARTBEAT_NANOS;
                    for (long left = HEARTBEAT_NANOS; tick == seen && !closed && left > 0;
                            left = until - System.nanoTime()) {
                        TimeUnit.NANOSECONDS.timedWait(tickLock, left);
                    }
                    if (tick != seen) {
                        // a new stream starts with the latest; one behind, with the first it missed
                        long from = seen < 0 ? tick : Math.max(seen + 1, tick - BACKLOG + 1);
                        data = new ArrayList<>((int) (tick - from + 1));
                        for (long t = from; t <= tick; t++) {
                            data.add(recent[(int) (t % BACKLOG)]);
                        }
                        seen = tick;
                    }
                }
                handlers.arm();
                Runnable hook = beforeStreamWrite;
                if (hook != null) {
                    hook.run();
                }
                if (data == null) {
                    // no new sample within the heartbeat: a comment, which the page ignores, so that a
                    // client that has gone is found out (its slot freed) now, not a whole interval on
                    out.write(HEARTBEAT);
                    out.flush();               // throws once the client has gone
                    continue;
                }
                for (String sample : data) {
                    // each sample's write has the deadline to itself, as when only the latest was
                    // sent: a stream on a link just fast enough for the samples catches up, where
                    // one write of all it missed could outlast the deadline
                    handlers.arm();
                    out.write(("data: " + sample + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // close(): end the stream
        } catch (IOException gone) {
            // the client closed the page, or stopped reading it past the deadline
        } finally {
            handlers.arm();                    // closing the exchange writes too: bound it
            streams.release();
        }
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Stops the server and the sampler and ends every open event stream, then waits for the
     * console's threads to end (the sampler, the request and stream threads, their watchdog), at
     * most 5 seconds: once it returns, no source is read any more (the schedulers and clusters it
     * showed may be closed) and the port is free. Only a source's supplier stuck in a call that
     * ignores interrupts outlasts that wait, and is left to end on its own (a daemon thread), with
     * a warning naming its thread on the {@code System.Logger} of this class. (While the console
     * runs, such a source is shown as not answering and the others go on: see {@link #sample()}.)
     * Called from an interrupted thread it returns without waiting, the interrupt kept; so called
     * from a console thread (a supplier that closes the console), which it has just interrupted
     * with the others, it does not wait (and never for the calling thread itself).
     * Idempotent: a second call returns at once. Later registrations throw
     * {@link IllegalStateException}; {@link #unregister} stays allowed, and does nothing.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (tickLock) {
            tickLock.notifyAll();
        }
        sampler.shutdownNow();
        readers.shutdownNow();
        server.stop(0);
        handlers.shutdownNow();
        // shutdownNow() only interrupts: a sampler still in a scheduler's stats() would read it
        // after the application, told the console was closed, had closed it
        long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
        try {
            Thread s = samplerThread;
            if (s != null) {
                HandlerPool.joinAll(List.of(s), deadline);
            }
            HandlerPool.joinAll(readers.threads(), deadline);
            handlers.join(deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        for (Thread t : readers.threads()) {
            if (t != Thread.currentThread()) {
                // a read stuck in a call that ignores interrupts: a daemon thread, left to end
                // on its own; said, so that a thread dump showing it later is explained
                LOG.log(System.Logger.Level.WARNING, "console on " + server.getAddress() + " closed with "
                        + t.getName() + " still in a source's read, which ignores interrupts: left running");
            }
        }
    }

    @Override
    public String toString() {
        return "Console[" + server.getAddress() + (closed ? ", closed" : "") + "]";
    }

    /**
     * Binds {@code address} once and lets it go, so that an address that cannot be bound (a port
     * taken, an address not of this host) fails here. The JDK's {@code HttpServer.create} opens
     * its listening channel before it binds and does not close it when the bind fails: each
     * console that failed to start kept a file descriptor until the JVM exited. (A port taken
     * between this bind and the server's still costs that one descriptor.)
     */
    private static void refuseIfUnbindable(InetSocketAddress address) throws IOException {
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.bind(address, 1);
        }
    }

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = Console.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("the console's resource " + name + " is missing from the jar");
            }
            return in.readAllBytes();
        }
    }
}
