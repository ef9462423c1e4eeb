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
import java.util.concurrent.ConcurrentHashMap;

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

    /** Starts a member with this role and worker id (-1 for the coordinator), its endpoint installed. */
    static HazelcastInstance start(HazelcastClusterSettings s, Offences offences, String role, int id,
                                   Endpoint endpoint) {
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

        // one thread for messages keeps a member's inbox cheap; fetches get their own pool so a
        // slow value never delays control messages
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
