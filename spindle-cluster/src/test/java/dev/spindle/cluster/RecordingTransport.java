/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A transport that delivers nothing and records what the scheduler or a worker sent. */
class RecordingTransport implements Transport {

    record Sent(int worker, Message.ToWorker message) {
    }

    final List<Sent> toWorkers = new ArrayList<>();
    final List<Message.ToScheduler> toScheduler = new ArrayList<>();

    @Override
    public synchronized void toWorker(int worker, Message.ToWorker message) {
        toWorkers.add(new Sent(worker, message));
    }

    /** Progress reports, kept apart: they come on a timer, between the protocol's replies. */
    final List<Message.TaskRunning> running = new ArrayList<>();

    @Override
    public synchronized void toScheduler(Message.ToScheduler message) {
        if (message instanceof Message.TaskRunning r) {
            running.add(r);
            return;
        }
        toScheduler.add(message);
        notifyAll();
    }

    synchronized List<Sent> sentToWorkers() {
        return List.copyOf(toWorkers);
    }

    /** Waits until at least {@code n} messages went to the scheduler; returns them. */
    /** The last {@link Message.Compute} sent for {@code key}, or {@code null}. */
    synchronized Message.Compute lastCompute(String key) {
        Sent s = lastComputeSent(key);
        return s == null ? null : (Message.Compute) s.message();
    }

    /**
     * The worker the first {@link Message.Compute} for {@code key} went to, or {@code -1}. Where the
     * scheduler may place the task again on its own (a flush that throws, after the event that
     * sent it), the last one read after the call returns may already be the second.
     */
    synchronized int workerOfFirstCompute(String key) {
        for (Sent s : toWorkers) {
            if (s.message() instanceof Message.Compute c && c.key().equals(key)) {
                return s.worker();
            }
        }
        return -1;
    }

    /** The first report to the scheduler, or {@code null} if none comes within a few seconds (a hang guard). */
    synchronized Message.ToScheduler awaitFirst() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (toScheduler.isEmpty()) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return null;
            }
            wait(left);
        }
        return toScheduler.get(0);
    }

    /** Whether worker {@code worker} was told to drop {@code key} ({@link Message.ReleaseKey}). */
    synchronized boolean releasedOn(int worker, String key) {
        for (Sent s : toWorkers) {
            if (s.worker() == worker && s.message() instanceof Message.ReleaseKey r && r.key().equals(key)) {
                return true;
            }
        }
        return false;
    }

    /** The worker the last {@link Message.Compute} for {@code key} went to, or {@code -1}. */
    synchronized int workerOfLastCompute(String key) {
        Sent s = lastComputeSent(key);
        return s == null ? -1 : s.worker();
    }

    private Sent lastComputeSent(String key) {
        Sent found = null;
        for (Sent s : toWorkers) {
            if (s.message() instanceof Message.Compute c && c.key().equals(key)) {
                found = s;
            }
        }
        return found;
    }

    synchronized List<Message.ToScheduler> awaitToScheduler(int n) throws InterruptedException {
        while (toScheduler.size() < n) {
            wait();
        }
        return new ArrayList<>(toScheduler);
    }

    /** Waits until a {@link Message.TaskFinished} of {@code key} has been sent; returns every report sent so far. */
    List<Message.ToScheduler> awaitFinished(String key) throws InterruptedException {
        List<Message.ToScheduler> replies = awaitToScheduler(1);
        while (replies.stream().noneMatch(m -> m instanceof Message.TaskFinished f && f.key().equals(key))) {
            replies = awaitToScheduler(replies.size() + 1);
        }
        return replies;
    }

    /**
     * Waits until attempt {@code attempt} of {@code key} has been reported finished; returns every
     * report sent so far.
     */
    List<Message.ToScheduler> awaitFinished(String key, long attempt) throws InterruptedException {
        List<Message.ToScheduler> replies = awaitToScheduler(1);
        while (replies.stream().noneMatch(m -> isFinished(m, key, attempt))) {
            replies = awaitToScheduler(replies.size() + 1);
        }
        return replies;
    }

    /**
     * Waits until attempt {@code attempt} of {@code key} has been reported finished, or
     * {@code millis} have passed: for a task that a correct worker may rightly hold back, so that
     * the test goes on either way.
     */
    synchronized void awaitFinishedAtMost(String key, long attempt, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (toScheduler.stream().noneMatch(m -> isFinished(m, key, attempt))) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                return;
            }
            wait(left);
        }
    }

    private static boolean isFinished(Message.ToScheduler m, String key, long attempt) {
        return m instanceof Message.TaskFinished f && f.key().equals(key) && f.attempt() == attempt;
    }

    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        return CompletableFuture.failedFuture(new IllegalStateException("no data plane in this test"));
    }

    @Override
    public void workerLost(int worker) {
        toScheduler(new Message.WorkerLost(worker));
    }

    @Override
    public long bytesTransferred() {
        return 0;
    }

    @Override
    public void close() {
    }
}
