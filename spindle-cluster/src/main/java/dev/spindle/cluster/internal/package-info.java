/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Not public API: what the cluster's transports share with its core module, the check of who
 * else on the machine may change a file a member trusts ({@code OwnFiles}). Exported only to
 * {@code dev.spindle.cluster.pekko}, the name that module's jar gives itself as an automatic module
 * ({@code Automatic-Module-Name}); on the class path it is reachable like any public class, and
 * documented nowhere as API.
 */
package dev.spindle.cluster.internal;
