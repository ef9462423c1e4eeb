/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.Config;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.concurrent.ConcurrentHashMap;

/** Builds the Hazelcast member configuration that every Spindle member shares. */
final class HazelcastConfigs {

    static final String MESSAGES = "spindle-messages";
    static final String FETCHES = "spindle-fetches";

    private HazelcastConfigs() {
    }

    /** Starts a member with this role and worker id (-1 for the coordinator), its endpoint installed. */
    static HazelcastInstance start(HazelcastClusterSettings s, FrameCodec codec, String role, int id,
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

        NetworkConfig network = c.getNetworkConfig();
        network.setPort(s.port()).setPortAutoIncrement(false);
        network.setPublicAddress(s.bindAddress() + ":" + s.port());
        network.getInterfaces().setEnabled(true).addInterface(s.bindAddress());
        JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(2).setMembers(s.members());

        c.getMemberAttributeConfig().setAttribute(Roster.ROLE, role);
        c.getMemberAttributeConfig().setAttribute(Roster.WORKER, Integer.toString(id));
        c.getMemberAttributeConfig().setAttribute(Roster.PROOF,
                Roster.proof(codec, s.clusterName(), role, id, s.bindAddress() + ":" + s.port()));

        // one thread for messages keeps a member's inbox cheap; fetches get their own pool so a
        // slow value never delays control messages
        c.getExecutorConfig(MESSAGES).setPoolSize(1).setStatisticsEnabled(false);
        c.getExecutorConfig(FETCHES).setPoolSize(4).setStatisticsEnabled(false);

        c.getSerializationConfig().addDataSerializableFactory(SpindleSerializables.FACTORY_ID,
                new SpindleSerializables());
        // Spindle itself sends only typed tasks; Hazelcast's Java deserialisation is limited to
        // its own defaults plus exceptions of java.lang, which remote failures travel as
        JavaSerializationFilterConfig filter = new JavaSerializationFilterConfig();
        filter.setWhitelist(new ClassFilter().addPrefixes("java.lang.", "java.util."));
        c.getSerializationConfig().setJavaSerializationFilterConfig(filter);

        ConcurrentHashMap<String, Object> context = new ConcurrentHashMap<>();
        context.put(Endpoint.USER_CONTEXT_KEY, endpoint);
        c.setUserContext(context);
        return Hazelcast.newHazelcastInstance(c);
    }
}
