/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ServerSocketEndpointConfig;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An attacker's plain Hazelcast member on 127.0.0.1, without the secret: what anyone who can
 * reach a member port and read the cluster name from {@code ps} can start.
 */
final class Intruder {

    private Intruder() {
    }

    /**
     * Joins {@code cluster} through {@code ports} on {@code port}, announcing {@code attributes};
     * with an {@code endpoint} it can also read Spindle's tasks that reach it.
     */
    static HazelcastInstance join(String cluster, int port, int[] ports, Map<String, String> attributes,
                                  Endpoint endpoint) {
        Config c = new Config().setClusterName(cluster);
        c.setProperty("hazelcast.logging.type", "none");
        c.setProperty("hazelcast.phone.home.enabled", "false");
        c.setProperty("hazelcast.wait.seconds.before.join", "0");
        c.setProperty("hazelcast.partition.count", "7");   // a join checks it; easy to find by trying
        // the same network layout as Spindle's members (Hazelcast joins only members that agree)
        ServerSocketEndpointConfig member = new ServerSocketEndpointConfig();
        member.setPort(port).setPortAutoIncrement(false).getInterfaces().setEnabled(true).addInterface("127.0.0.1");
        c.getAdvancedNetworkConfig().setEnabled(true).setMemberEndpointConfig(member);
        JoinConfig join = c.getAdvancedNetworkConfig().getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        join.getTcpIpConfig().setEnabled(true);
        for (int p : ports) {
            join.getTcpIpConfig().addMember("127.0.0.1:" + p);
        }
        attributes.forEach((k, v) -> c.getMemberAttributeConfig().setAttribute(k, v));
        if (endpoint != null) {
            c.getSerializationConfig().addDataSerializableFactory(SpindleSerializables.FACTORY_ID,
                    new SpindleSerializables(HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES, new Offences("intruder")));
            ConcurrentHashMap<String, Object> context = new ConcurrentHashMap<>();
            context.put(Endpoint.USER_CONTEXT_KEY, endpoint);
            c.setUserContext(context);
        }
        return Hazelcast.newHazelcastInstance(c);
    }
}
