/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Objects;

/**
 * The deserialisation allow-list shared by the transports between JVMs: the
 * {@link java.io.ObjectInputFilter} pattern a transport reads every message and value through.
 *
 * <p>Allowed: the transport's own package (its wire records and exceptions), {@link Message}'s
 * records, {@link Client} and its lambdas (the scatter functions), {@code java.lang},
 * {@code java.util}, {@code java.math}, {@code SerializedLambda}, and the user's packages with
 * their subpackages; everything else is refused ({@code !*}). Depth, reference count, array
 * length and stream size are bounded, and the filter checks an array's declared length before the
 * array is allocated, so a hostile stream cannot make the reader allocate more than the limits.
 *
 * <p>Public only so that transports in other modules share one definition; it is not an API for
 * applications.
 */
public final class SerialAllowList {

    private SerialAllowList() {
    }

    /**
     * The filter pattern for {@link java.io.ObjectInputFilter.Config#createFilter}.
     *
     * @param transportPackage the transport's package, allowed without subpackages
     * @param allowedPackages user packages, each allowed with its subpackages
     * @param maxDepth the deepest object graph
     * @param maxRefs the most objects and back-references in one stream
     * @param maxArrayLength the longest array
     * @param maxStreamBytes the longest stream, or 0 for no bound here (the caller bounds the input)
     * @return the pattern: the limits, then the classes allowed (the transport's package, the
     *     cluster's messages, {@code java.lang}, {@code java.util} and {@code java.math} without
     *     subpackages, serialised lambdas, the allowed packages), then {@code !*}, which refuses
     *     every other class
     * @throws IllegalArgumentException if a package name is not one, or a limit is not positive
     */
    public static String pattern(String transportPackage, List<String> allowedPackages, int maxDepth, long maxRefs,
                                 long maxArrayLength, long maxStreamBytes) {
        checkPackage(transportPackage);
        if (maxDepth < 1 || maxRefs < 1 || maxArrayLength < 1 || maxStreamBytes < 0) {
            throw new IllegalArgumentException("filter limits must be positive");
        }
        StringBuilder sb = new StringBuilder("maxdepth=").append(maxDepth).append(";maxrefs=").append(maxRefs)
                .append(";maxarray=").append(maxArrayLength).append(';');
        if (maxStreamBytes > 0) {
            sb.append("maxbytes=").append(maxStreamBytes).append(';');
        }
        sb.append(transportPackage).append(".*;dev.spindle.cluster.Message$*;dev.spindle.cluster.Client*;");
        sb.append("java.lang.*;java.util.*;java.math.*;java.lang.invoke.SerializedLambda;");
        for (String p : allowedPackages) {
            sb.append(checkPackage(p)).append(".**;");
        }
        return sb.append("!*").toString();
    }

    /**
     * Returns {@code packageName} if it is a Java package name, so that it cannot smuggle
     * filter syntax ({@code ;}, {@code !}, {@code *}) into a pattern.
     *
     * @param packageName the name to check
     * @return {@code packageName} itself
     * @throws IllegalArgumentException if it is not a package name
     * @throws NullPointerException if {@code packageName} is null
     */
    public static String checkPackage(String packageName) {
        Objects.requireNonNull(packageName, "packageName");
        if (!packageName.matches("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*")) {
            throw new IllegalArgumentException("not a package name: '" + packageName + "'");
        }
        return packageName;
    }
}
