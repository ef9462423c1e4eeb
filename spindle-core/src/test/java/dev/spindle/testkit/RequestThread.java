/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A thread that looks like a request's in an application server, for the tests in every module
 * (the core's test-jar) that check what a long-lived thread of the library keeps of the thread
 * that happened to make it: a context class loader of its own (a web application's), an
 * {@link InheritableThreadLocal} value (a request's context) and the lowest priority.
 */
public final class RequestThread {

    /** The request's context; {@code "request-1"} on a request thread, inherited by what it makes. */
    public static final InheritableThreadLocal<String> REQUEST = new InheritableThreadLocal<>();

    private RequestThread() {
    }

    /** A request thread's own context class loader (a web application's, say). */
    public static final class RequestLoader extends URLClassLoader {
        RequestLoader() {
            super(new URL[0], null);
        }
    }

    /**
     * What code running on a thread sees of it: the request's value, whether its context loader is
     * a request's, its priority.
     */
    public record Seen(String request, boolean requestsLoader, int priority) {

        /** What a thread that took nothing of a request thread shows. */
        public static final Seen NOTHING_OF_A_REQUEST = new Seen(null, false, Thread.NORM_PRIORITY);

        /** {@return what the calling thread shows} */
        public static Seen here() {
            Thread t = Thread.currentThread();
            return new Seen(REQUEST.get(), t.getContextClassLoader() instanceof RequestLoader, t.getPriority());
        }
    }

    /** What runs on the request thread. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} on a new request thread and waits for it to end.
     *
     * @return a weak reference to that thread's loader, for {@link Gc#collected} to tell whether
     *     something the body made pins it
     * @throws AssertionError if the body threw (with what it threw) or did not end in 30 s
     */
    public static WeakReference<ClassLoader> run(Body body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread creator = new Thread(() -> {
            REQUEST.set("request-1");
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                REQUEST.remove();
            }
        }, "request-thread");
        RequestLoader loader = new RequestLoader();
        creator.setContextClassLoader(loader);
        creator.setPriority(Thread.MIN_PRIORITY);
        creator.start();
        creator.join(TimeUnit.SECONDS.toMillis(30));
        if (creator.isAlive()) {
            throw new AssertionError("the request thread did not end in 30 s");
        }
        if (failure.get() != null) {
            throw new AssertionError("the request thread's body threw", failure.get());
        }
        return new WeakReference<>(loader);
    }
}
