/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.runtime;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Virtual threads (JDK 21+) for the benchmarks that compare with them, from code compiled for
 * Java 17: the one place that finds them and sizes their carriers.
 *
 * <p><b>Finding them.</b> {@code Executors.newVirtualThreadPerTaskExecutor()} is looked up once,
 * at class initialisation, with a public lookup; before JDK 21 the method does not exist and
 * {@link #available()} is false.
 *
 * <p><b>Carriers.</b> The JDK runs every virtual thread on one JVM-wide scheduler whose
 * parallelism it reads once, when the first virtual thread starts, from the system property
 * {@value #PARALLELISM_PROPERTY} (the number of cores when unset). {@link #newPerTaskExecutor}
 * sets that property to its {@code workers} the first time it is called, unless it is already
 * set, so that the carriers match the other runtimes' threads; every later executor shares that
 * scheduler whatever its {@code workers}. {@link #carriers()} says which figure is in force. A
 * virtual thread started elsewhere in the JVM before the first executor would have fixed the
 * scheduler at the default already: the benchmarks start none.
 */
public final class VirtualThreads {

    /** The system property the JDK reads its carrier parallelism from. */
    public static final String PARALLELISM_PROPERTY = "jdk.virtualThreadScheduler.parallelism";

    private static final MethodHandle NEW_EXECUTOR = lookup();
    /** The property's value when the first executor was made; guarded by the class lock. */
    private static String carriers;

    private VirtualThreads() {
    }

    /** Whether this JVM has virtual threads (JDK 21+). */
    public static boolean available() {
        return NEW_EXECUTOR != null;
    }

    /**
     * The carrier parallelism in force: the property's value when the first executor was made,
     * or, before that, its value now; {@code null} when neither the first executor nor anyone
     * else has set it yet.
     */
    public static synchronized String carriers() {
        return carriers != null ? carriers : System.getProperty(PARALLELISM_PROPERTY);
    }

    /**
     * The carriers in words for a runtime's description: {@code "carriers N (property)"}, N the
     * figure in force or, before it is fixed, {@code workers} (which the first executor will set).
     */
    public static String carriersInWords(int workers) {
        String c = carriers();
        return "carriers " + (c == null ? Integer.toString(workers) : c) + " (" + PARALLELISM_PROPERTY + ")";
    }

    /**
     * A new executor that starts a virtual thread per task. The first call sets
     * {@value #PARALLELISM_PROPERTY} to {@code workers} unless it is already set.
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     * @throws UnsupportedOperationException before JDK 21, naming the Java version
     */
    public static ExecutorService newPerTaskExecutor(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, was " + workers);
        }
        if (!available()) {
            throw new UnsupportedOperationException("virtual threads need JDK 21+, this is Java "
                    + System.getProperty("java.version"));
        }
        synchronized (VirtualThreads.class) {
            if (carriers == null) {
                if (System.getProperty(PARALLELISM_PROPERTY) == null) {
                    System.setProperty(PARALLELISM_PROPERTY, Integer.toString(workers));
                }
                carriers = System.getProperty(PARALLELISM_PROPERTY);
            }
        }
        try {
            return (ExecutorService) NEW_EXECUTOR.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot create a virtual-thread executor", t);
        }
    }

    /**
     * Shuts {@code threads} down and waits up to {@code patience} for its tasks to finish, then
     * interrupts what still runs ({@code shutdownNow}); keeps the caller's interrupt status.
     *
     * @return whether every task finished within {@code patience}
     */
    public static boolean shutdown(ExecutorService threads, Duration patience) {
        threads.shutdown();
        try {
            if (threads.awaitTermination(patience.toNanos(), TimeUnit.NANOSECONDS)) {
                return true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        threads.shutdownNow();
        return false;
    }

    private static MethodHandle lookup() {
        try {
            return MethodHandles.publicLookup().findStatic(Executors.class, "newVirtualThreadPerTaskExecutor",
                    MethodType.methodType(ExecutorService.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;                          // before JDK 21
        }
    }
}
