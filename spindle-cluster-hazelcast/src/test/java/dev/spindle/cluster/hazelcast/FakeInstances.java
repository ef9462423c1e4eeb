/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Cluster;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.IExecutorService;
import java.lang.reflect.Proxy;
import java.util.function.BiConsumer;

/** Stand-ins for a Hazelcast instance and its executor, for tests that drive the transport's classes by hand. */
final class FakeInstances {

    private FakeInstances() {
    }

    /** An executor service that tells {@code calls} each method called (name, arguments) and does nothing else. */
    static IExecutorService executor(BiConsumer<String, Object[]> calls) {
        return (IExecutorService) Proxy.newProxyInstance(FakeInstances.class.getClassLoader(),
                new Class<?>[] {IExecutorService.class}, (p, method, args) -> {
                    calls.accept(method.getName(), args);
                    return switch (method.getName()) {
                        case "hashCode" -> System.identityHashCode(p);
                        case "equals" -> p == args[0];
                        default -> null;
                    };
                });
    }

    /** An instance with {@code executor} as its executor service and {@code cluster} (may be null) as its cluster. */
    static HazelcastInstance instance(IExecutorService executor, Cluster cluster) {
        return (HazelcastInstance) Proxy.newProxyInstance(FakeInstances.class.getClassLoader(),
                new Class<?>[] {HazelcastInstance.class}, (p, method, args) -> switch (method.getName()) {
                    case "getExecutorService" -> executor;
                    case "getCluster" -> cluster;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> p == args[0];
                    case "toString" -> "fake instance";
                    default -> null;
                });
    }
}
