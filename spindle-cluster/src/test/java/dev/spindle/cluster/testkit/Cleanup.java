/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * What a multi-JVM test started (worker JVMs, the coordinator), closed after the test in the
 * reverse order of starting: the coordinator, started last, goes first, so that it does not see
 * its workers leave. Every item is closed even if one fails; the first failure is thrown with the
 * others suppressed. Registered as an extension ({@code @RegisterExtension}), it closes them after
 * each test by itself.
 */
public final class Cleanup implements AutoCloseable, AfterEachCallback {

    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    /** Registers {@code item} to be closed, and returns it. */
    public synchronized <T extends AutoCloseable> T add(T item) {
        started.push(item);
        return item;
    }

    /** Closes what was added, last first; the cleanup can be used again afterwards. */
    @Override
    public void close() throws Exception {
        Exception first = null;
        for (AutoCloseable item; (item = poll()) != null; ) {
            try {
                item.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** As an extension: closes what the test added, after it. */
    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        close();
    }

    private synchronized AutoCloseable poll() {
        return started.poll();
    }
}
