/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Several {@link Reactor}s, each with its own selector thread, over which connections are
 * spread round-robin. One selector thread reads and dispatches every message of every
 * connection it serves, so on many cores it becomes the bottleneck; a listener bound to a group
 * gives each accepted connection the group's next reactor. The reactors of an
 * {@linkplain #openDriven driven group} have no threads: the idle workers of one
 * {@code AsyncRuntime} wait in their selectors, one worker per selector at a time.
 *
 * <pre>{@code
 * try (ReactorGroup reactors = ReactorGroup.open(4);
 *         AsyncTcpListener listener = AsyncTcpListener.bind(
 *                 new InetSocketAddress(InetAddress.getLoopbackAddress(), 7007), reactors)) {
 *     ... // accepted streams are served by the four reactors in turn
 * }
 * }</pre>
 *
 * <p>{@link #shared()} is the JVM-wide group the one-argument {@code bind} and {@code connect}
 * use: one reactor per four available processors (at least one), the first of them
 * {@link Reactor#shared()}.
 */
public final class ReactorGroup implements AutoCloseable {

    private static ReactorGroup shared;

    /**
     * The most reactors a group may have: {@code AsyncRuntime.MAX_WORKERS}, the most workers a
     * runtime has, and so the most reactors of a driven group anything could ever drive. A
     * count beyond it (a byte or connection count passed by mistake) is refused before anything
     * is allocated or opened: {@code Integer.MAX_VALUE} was an {@link OutOfMemoryError} from the
     * group's array, and a count past it opened selectors, and started threads, one after
     * another until the file descriptors ran out.
     */
    public static final int MAX_REACTORS = 32767;

    private final Reactor[] reactors;
    private final boolean owned;
    private final AtomicInteger next = new AtomicInteger();

    private ReactorGroup(Reactor[] reactors, boolean owned) {
        this.reactors = reactors;
        this.owned = owned;
    }

    /**
     * A group of {@code reactors} new reactors, each with a selector thread of its own;
     * {@link #close()} stops them.
     *
     * @param reactors the number of reactors, from 1 to {@value #MAX_REACTORS}
     * @return the new group, which the caller closes
     * @throws IllegalArgumentException unless {@code 1 <= reactors <= MAX_REACTORS}
     * @throws IOException if a selector cannot be opened (those opened already are closed)
     * @throws OutOfMemoryError if a selector thread cannot be started (those opened already are
     *     closed)
     */
    public static ReactorGroup open(int reactors) throws IOException {
        return open(reactors, Reactor::open);
    }

    /** Opens one reactor of a new group. */
    @FunctionalInterface
    interface Opener {
        Reactor open() throws IOException;
    }

    /**
     * A group of {@code reactors} reactors, each made by {@code opener} (tests pass one that
     * fails). Whatever a failed open throws, the reactors opened before it are closed: they were
     * in no group the caller could close, and an error (a selector thread that could not start)
     * left their threads and selectors running for good.
     */
    static ReactorGroup open(int reactors, Opener opener) throws IOException {
        if (reactors < 1 || reactors > MAX_REACTORS) {
            throw new IllegalArgumentException("a reactor group needs at least one reactor and at most "
                    + MAX_REACTORS + ", was " + reactors);
        }
        Reactor[] rs = new Reactor[reactors];
        try {
            for (int i = 0; i < reactors; i++) {
                rs[i] = opener.open();
            }
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(rs, 0, e);
            throw e;
        }
        return new ReactorGroup(rs, true);
    }

    /** Closes the reactors {@code rs[from..]} that opened before {@code failure}, which gets any close's. */
    private static void closeAfterFailure(Reactor[] rs, int from, Throwable failure) {
        for (int i = from; i < rs.length; i++) {
            if (rs[i] != null) {
                try {
                    rs[i].close();
                } catch (IOException | RuntimeException suppressed) {
                    failure.addSuppressed(suppressed);
                }
            }
        }
    }

    /**
     * A group of {@code reactors} new reactors <em>without</em> threads, for the workers of one
     * runtime to drive: pass {@link #reactors()} to {@code AsyncRuntime.Builder.driveIo}, and
     * bind listeners and connect streams with this group. Idle workers then wait in the
     * selectors and run the tasks their readiness wakes, with no hand-off between threads (one
     * worker per selector at a time; at most as many reactors as workers). Until a runtime is
     * built with them, nothing selects. {@link #close()} closes the selectors.
     *
     * @param reactors the number of reactors, at least 1 and at most the workers of the runtime
     *     that will drive them (so at most {@value #MAX_REACTORS})
     * @return the new group, which the caller closes after the runtime
     * @throws IllegalArgumentException unless {@code 1 <= reactors <= MAX_REACTORS}
     * @throws IOException if a selector cannot be opened (those opened already are closed)
     */
    public static ReactorGroup openDriven(int reactors) throws IOException {
        return open(reactors, Reactor::openDriven);
    }

    /**
     * The JVM-wide group: {@code max(1, availableProcessors / 4)} reactors on daemon threads, the
     * first {@link Reactor#shared()}. It stays open, and so does each of its reactors: closing
     * one throws an {@link IllegalStateException}.
     *
     * @return the shared group, created on first use
     */
    public static synchronized ReactorGroup shared() {
        if (shared == null) {
            int n = Math.max(1, Runtime.getRuntime().availableProcessors() / 4);
            Reactor[] rs = openShared(Reactor.shared(), n, () -> Reactor.openJvmWide(Reactor.uniqueName()));
            for (int i = 1; i < rs.length; i++) {
                rs[i].keepOpen();              // kept for the JVM's life, as rs[0]
            }
            shared = new ReactorGroup(rs, false);
        }
        return shared;
    }

    /**
     * The reactors of the JVM-wide group: {@code first} and up to {@code n - 1} more made by
     * {@code opener}. A selector that cannot be opened ({@link IOException}) ends the list there:
     * fewer selectors than wanted still work, so the ones opened are kept. Anything else (a
     * selector thread that cannot start throws an {@link Error}) closes the ones this call opened
     * and is thrown: they would belong to no group, and each later call, opening its own, would
     * leave more threads and selectors running for good.
     */
    static Reactor[] openShared(Reactor first, int n, Opener opener) {
        Reactor[] rs = new Reactor[n];
        rs[0] = first;
        int opened = 1;
        try {
            for (; opened < n; opened++) {
                rs[opened] = opener.open();
            }
        } catch (IOException e) {
            return Arrays.copyOf(rs, opened);  // fewer selectors than wanted: keep those that opened
        } catch (RuntimeException | Error e) {
            closeAfterFailure(rs, 1, e);       // not rs[0]: the caller's
            throw e;
        }
        return rs;
    }

    /**
     * The group's reactors, in round-robin order.
     *
     * @return an immutable list of the group's reactors
     */
    public List<Reactor> reactors() {
        return List.of(reactors);
    }

    /**
     * The next open reactor in turn. A reactor of the group that was closed on its own is passed
     * over (its turns go to the open reactor after it): a connection given to it could never wait
     * for anything, so a listener on this group would accept connections it cannot serve.
     *
     * @return the reactor after the one returned last, round-robin, skipping closed ones; safe
     *     from any thread
     * @throws IllegalStateException if every reactor of the group is closed
     */
    public Reactor next() {
        int n = reactors.length;
        int start = next.getAndIncrement();
        for (int k = 0; k < n; k++) {
            Reactor r = reactors[Math.floorMod(start + k, n)];
            if (!r.isClosed()) {
                return r;
            }
        }
        throw new IllegalStateException("every reactor of the group is closed");
    }

    /**
     * Stops every reactor of a group made by {@link #open}. Not allowed for {@link #shared()}.
     *
     * @throws IllegalStateException for the shared group
     */
    @Override
    public void close() {
        if (!owned) {
            throw new IllegalStateException("the shared reactor group stays open");
        }
        UncheckedIOException failure = null;
        for (Reactor r : reactors) {
            try {
                r.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = new UncheckedIOException("cannot close a reactor", e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "ReactorGroup[" + reactors.length + " reactors]";
    }
}
