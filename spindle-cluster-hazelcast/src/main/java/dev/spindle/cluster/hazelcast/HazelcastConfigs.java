/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.config.AdvancedNetworkConfig;
import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.util.ConcurrencyUtil;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds the Hazelcast member configuration that every Spindle member shares.
 *
 * <p>The network is Hazelcast's advanced network with a member endpoint only: there is no client
 * endpoint (a {@code HazelcastClient} finds nothing to connect to), and no REST or memcache
 * endpoint. Hazelcast's own Java deserialisation, which it would apply to anything a joined member
 * sends, accepts only the classes Hazelcast needs to report a failed remote call (its defaults,
 * {@code java.*}, arrays and {@code com.hazelcast.*}, are disabled); Spindle itself sends only its
 * typed tasks.
 */
final class HazelcastConfigs {

    static final String MESSAGES = "spindle-messages";
    static final String FETCHES = "spindle-fetches";

    /**
     * The classes Hazelcast may Java-deserialise: the exceptions a failed executor call comes back
     * as, and what a {@link Throwable} is made of. Nothing that holds arbitrary objects.
     */
    static final String[] HAZELCAST_SERIAL_CLASSES = {
        "java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException",
        "java.lang.IllegalStateException", "java.lang.IllegalArgumentException", "java.lang.SecurityException",
        "java.lang.StackTraceElement", "[Ljava.lang.StackTraceElement;", "[Ljava.lang.Throwable;",
        "java.util.concurrent.ExecutionException", "java.util.concurrent.RejectedExecutionException",
        "java.util.concurrent.CancellationException", "java.util.Collections$EmptyList",
        "java.util.Collections$UnmodifiableList", "java.util.Collections$UnmodifiableRandomAccessList",
        "java.util.Collections$UnmodifiableCollection", "java.util.ArrayList",
        "com.hazelcast.core.HazelcastException", "com.hazelcast.core.HazelcastInstanceNotActiveException",
        "com.hazelcast.core.MemberLeftException", "com.hazelcast.spi.exception.TargetNotMemberException",
        "com.hazelcast.spi.exception.RetryableHazelcastException",
        "com.hazelcast.nio.serialization.HazelcastSerializationException",
    };

    private HazelcastConfigs() {
    }

    /**
     * Makes Hazelcast run its invocation callbacks on reused threads where it would start a new
     * thread for each. Hazelcast completes every invocation's callbacks on its default async
     * executor, which is the common {@code ForkJoinPool} unless that pool's parallelism is 1 (two
     * cores or fewer), and then {@code new Thread(callback).start()}. Every Spindle message is an
     * executor invocation with a response, so on such a machine each message, each fetch and
     * each result cost a thread start and end: a JFR recording of the 8,191-task tree across three
     * worker JVMs counted 61,661 threads started in the coordinator and 23,995 in 40 s of one
     * worker (docs/BENCHMARKS.md). The replacement keeps the fallback's semantics (no queue, a
     * thread for each callback that finds none idle, so no callback ever waits behind another)
     * but keeps idle threads for a minute. Left alone when Hazelcast uses the common pool or an
     * executor someone else installed; once per JVM.
     */
    static synchronized void reuseCallbackThreads() {
        if (!startsThreadPerCallback(ConcurrencyUtil.getDefaultAsyncExecutor())) {
            return;
        }
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor callbacks = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS,
                new SynchronousQueue<>(), r -> {
                    // Made by whichever thread hands over a callback when none is idle (a
                    // request's, say), and kept to run everyone's later callbacks: unlike the
                    // fallback's one-callback threads, these must take nothing of that thread. No
                    // inherited InheritableThreadLocal values, and the context class loader and
                    // priority of the common pool's workers, which run the callbacks where
                    // Hazelcast uses that pool (more cores): the system loader (a request's, a web
                    // application's, was pinned for as long as the thread was kept busy) and normal.
                    Thread t = new Thread(null, r, "spindle-hz-callback-" + n.incrementAndGet(), 0, false);
                    t.setDaemon(true);        // as the fallback's threads are short-lived, these never hold a JVM open
                    t.setContextClassLoader(ClassLoader.getSystemClassLoader());
                    t.setPriority(Thread.NORM_PRIORITY);
                    return t;
                });
        ConcurrencyUtil.setDefaultAsyncExecutor(callbacks);
    }

    /** Whether {@code e} is Hazelcast's own fallback, which starts a thread per callback. */
    static boolean startsThreadPerCallback(Executor e) {
        return e.getClass().getName().startsWith(ConcurrencyUtil.class.getName() + "$$Lambda");
    }

    /**
     * Whether one of Spindle's executors ({@value #MESSAGES}, {@value #FETCHES}) is shut down on
     * {@code hz} while the member still runs. Spindle never shuts them down, but Hazelcast's
     * {@code IExecutorService.shutdown()} is cluster-wide, and any member that joined may call it
     * without the secret (it needs no Java deserialisation, so the class list above does not stop
     * it); Hazelcast then refuses every task of that executor to or from this member for good, and
     * the member cannot take part any more. A member that is stopping, or {@code null}, answers
     * false: its lifecycle tells. Asked only once something was refused, never per message.
     */
    static boolean executorShutDown(HazelcastInstance hz) {
        try {
            return hz != null && hz.getLifecycleService().isRunning()
                    && (hz.getExecutorService(MESSAGES).isShutdown() || hz.getExecutorService(FETCHES).isShutdown());
        } catch (RuntimeException stopping) {
            return false;                     // the member stopped meanwhile: its lifecycle tells
        }
    }

    /** Starts a member with this role and worker id (-1 for the coordinator), its endpoint installed. */
    static HazelcastInstance start(HazelcastClusterSettings s, Offences offences, String role, int id,
                                   Endpoint endpoint) {
        reuseCallbackThreads();
        Config c = new Config();
        c.setClusterName(s.clusterName());
        c.setInstanceName("spindle-" + role + "-" + id + "-" + s.port());
        c.setProperty("hazelcast.logging.type", System.getProperty("hazelcast.logging.type", "none"));
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.socket.bind.any", "false");
        c.setProperty("hazelcast.heartbeat.interval.seconds", "1");
        c.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(s.failureSeconds()));
        c.setProperty("hazelcast.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.max.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.partition.count", "7");
        c.setProperty("hazelcast.shutdownhook.policy", "TERMINATE");

        // the member endpoint only: no client, REST or memcache endpoint exists to connect to
        AdvancedNetworkConfig network = c.getAdvancedNetworkConfig().setEnabled(true);
        ServerSocketEndpointConfig member = new ServerSocketEndpointConfig();
        member.setPort(s.port()).setPortAutoIncrement(false).setPublicAddress(s.bindAddress() + ":" + s.port());
        member.getInterfaces().setEnabled(true).addInterface(s.bindAddress());
        network.setMemberEndpointConfig(member);
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2).setMembers(s.members());

        // hints only: a member proves its role and id by the Handshake, never by these
        c.getMemberAttributeConfig().setAttribute(Roster.ROLE, role);
        c.getMemberAttributeConfig().setAttribute(Roster.WORKER, Integer.toString(id));
        c.getMemberAttributeConfig().setAttribute(Roster.FRAME_LIMIT, Integer.toString(s.maxFrameBytes()));

        // one thread for messages keeps a member's inbox cheap, and handles its frames one at a time
        // (Hazelcast runs at most the pool size of a named executor's tasks at once, on threads of
        // its shared pool, in the order they reach the member, which may not be the order sent): a
        // worker's node takes its messages one at a time anyway (WorkerNode#receive), and this
        // keeps that lock uncontended. Fetches get their own pool so a slow value never delays
        // control messages. Both queues keep Hazelcast's default capacity,
        // unbounded (Integer.MAX_VALUE), and must: a task that found its queue full would be refused
        // on arrival with an exception sent back to the sender's future: Outbox hears of it and
        // has the worker handled as lost (or, on a worker, has it leave), so a full queue would
        // cost workers where it should only wait
        c.getExecutorConfig(MESSAGES).setPoolSize(1).setStatisticsEnabled(false);
        c.getExecutorConfig(FETCHES).setPoolSize(4).setStatisticsEnabled(false);

        c.getSerializationConfig().addDataSerializableFactory(SpindleSerializables.FACTORY_ID,
                new SpindleSerializables(s.maxFrameBytes(), offences));
        JavaSerializationFilterConfig filter = new JavaSerializationFilterConfig().setDefaultsDisabled(true);
        filter.setWhitelist(new ClassFilter().addClasses(HAZELCAST_SERIAL_CLASSES));
        c.getSerializationConfig().setJavaSerializationFilterConfig(filter);

        ConcurrentHashMap<String, Object> context = new ConcurrentHashMap<>();
        context.put(Endpoint.USER_CONTEXT_KEY, endpoint);
        c.setUserContext(context);
        return Hazelcast.newHazelcastInstance(c);
    }

}
