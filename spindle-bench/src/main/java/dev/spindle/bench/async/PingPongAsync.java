/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import dev.spindle.async.Async;
import dev.spindle.async.AsyncChannel;
import dev.spindle.async.AsyncPromise;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Poll;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Tokio's {@code ping_pong}: a task inside the runtime spawns {@code pairs} pingers; each pinger
 * spawns a ponger, sends it a ping over a one-shot channel and waits for the pong on another; the
 * last pinger to get its pong signals the caller. Checked: pinger {@code i} pings {@code i}, the
 * ponger answers {@code i + 1}, and the answers sum to the known total.
 *
 * <ul>
 *   <li>async ({@code ping_pong}): the one-shots are {@code AsyncPromise}s, as Tokio's are
 *       {@code oneshot} channels; the ponger is {@code Async.map} of the ping promise completing
 *       the pong promise, the pinger completes the ping and returns {@code Async.map} of the
 *       pong.</li>
 *   <li>async ({@code ping_pong_channel}): the one-shots are {@code AsyncChannel}s of capacity 1
 *       instead, a general bounded channel used for one value: the ponger is {@code receive}
 *       then {@code send(v + 1)}, the pinger {@code send(i)} then {@code receive}, with
 *       {@code Async.then}. The other runtimes run the same code as for {@code ping_pong}.</li>
 *   <li>CompletableFuture: the one-shots are plain {@code CompletableFuture}s; the ponger is
 *       {@code ping.thenAcceptAsync(v -> pong.complete(v + 1), pool)}, the pinger completes the
 *       ping and continues with {@code pong.thenAcceptAsync(..., pool)}: every hop a task on the
 *       pool, as every wake-up is a poll on the async side.</li>
 *   <li>virtual threads: one virtual thread starts the pingers (a virtual thread each) and sums
 *       their pongs; each pinger starts its ponger, completes the ping one-shot (a
 *       {@code CompletableFuture}) and waits on the pong one-shot, the ponger waits on the ping
 *       and completes the pong: blocking waits, each parking its virtual thread.</li>
 * </ul>
 */
public final class PingPongAsync implements AsyncWorkload {

    /** Tokio's size. */
    public static final int FULL_PAIRS = 1_000;

    private final int pairs;
    private final boolean channels;

    /** {@code ping_pong}: the async side's one-shots are {@code AsyncPromise}s. */
    public PingPongAsync(int pairs) {
        this(pairs, false);
    }

    /**
     * @param channels whether the async side's one-shots are {@code AsyncChannel}s of capacity 1
     *     ({@code ping_pong_channel}) rather than {@code AsyncPromise}s ({@code ping_pong})
     */
    public PingPongAsync(int pairs, boolean channels) {
        this.pairs = pairs;
        this.channels = channels;
    }

    @Override
    public String name() {
        return channels ? "ping_pong_channel" : "ping_pong";
    }

    @Override
    public String describe() {
        return String.format("%s: %,d pinger/ponger pairs, one round trip each over one-shot %s", name(), pairs,
                channels ? "channels (AsyncChannel of capacity 1 on the async side)" : "promises");
    }

    /** Round trips (one per pair). */
    @Override
    public long operations() {
        return pairs;
    }

    private long expected() {
        return (long) pairs * (pairs + 1) / 2;       // sum of i + 1 for i in [0, pairs)
    }

    private static void checkPong(long ping, long pong) {
        if (pong != ping + 1) {                // the message only on failure: a string per pair
            AsyncWorkload.check("ping_pong: pong for ping " + ping, ping + 1, pong);  // was 56 bytes
        }                                                                             // on every side
    }

    @Override
    public long run(AsyncRuntime rt) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(pairs);
        AtomicLong sum = new AtomicLong();
        rt.spawn(cx -> {
            for (int i = 0; i < pairs; i++) {
                int ping = i;
                rt.spawn(Async.then(Async.ready(null), ignored -> {   // runs at the pinger's first poll
                    if (channels) {
                        return exchangeOverChannels(rt, ping, done, remaining, sum);
                    }
                    AsyncPromise<Integer> toPonger = new AsyncPromise<>();
                    AsyncPromise<Integer> toPinger = new AsyncPromise<>();
                    rt.spawn(Async.map(toPonger, v -> {                // the ponger; ends with no value,
                        toPinger.complete(v + 1);                       // as the CompletableFuture one's
                        return null;                                    // thenAccept stage does
                    }));
                    toPonger.complete(ping);
                    return Async.map(toPinger, pong -> pongReceived(ping, pong, done, remaining, sum));
                }));
            }
            return Poll.ready(null);
        });
        return AsyncWorkload.check(name() + " sum of pongs", expected(), AsyncWorkload.await(done, name()));
    }

    private AsyncTask<Void> exchangeOverChannels(AsyncRuntime rt, int ping, CompletableFuture<Long> done,
            AtomicInteger remaining, AtomicLong sum) {
        AsyncChannel<Integer> toPonger = new AsyncChannel<>(1);
        AsyncChannel<Integer> toPinger = new AsyncChannel<>(1);
        rt.spawn(Async.then(toPonger.receive(), v -> toPinger.send(v + 1)));
        return Async.then(toPonger.send(ping),
                sent -> Async.map(toPinger.receive(), pong -> pongReceived(ping, pong, done, remaining, sum)));
    }

    /** The pinger's last step: check the pong, add it, and signal the caller after the last pair. */
    private Void pongReceived(int ping, int pong, CompletableFuture<Long> done, AtomicInteger remaining,
            AtomicLong sum) {
        try {
            checkPong(ping, pong);
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
            throw e;
        }
        sum.addAndGet(pong);
        if (remaining.decrementAndGet() == 0) {
            done.complete(sum.get());
        }
        return null;
    }

    @Override
    public long run(ForkJoinPool pool) {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(pairs);
        AtomicLong sum = new AtomicLong();
        CompletableFuture.runAsync(() -> {
            for (int i = 0; i < pairs; i++) {
                int ping = i;
                CompletableFuture.runAsync(() -> {
                    CompletableFuture<Integer> toPonger = new CompletableFuture<>();
                    CompletableFuture<Integer> toPinger = new CompletableFuture<>();
                    toPonger.thenAcceptAsync(v -> toPinger.complete(v + 1), pool);        // the ponger
                    toPonger.complete(ping);
                    toPinger.thenAcceptAsync(pong -> {
                        try {
                            checkPong(ping, pong);
                        } catch (RuntimeException e) {
                            done.completeExceptionally(e);
                            return;
                        }
                        sum.addAndGet(pong);
                        if (remaining.decrementAndGet() == 0) {
                            done.complete(sum.get());
                        }
                    }, pool);
                }, pool);
            }
        }, pool);
        return AsyncWorkload.check(name() + " sum of pongs", expected(), AsyncWorkload.await(done, name()));
    }

    @Override
    public long runVirtual(ExecutorService threads) {
        Future<Long> all = threads.submit(() -> {
            @SuppressWarnings("unchecked")
            Future<Long>[] pongs = new Future[pairs];
            for (int i = 0; i < pairs; i++) {
                int ping = i;
                pongs[i] = threads.submit(() -> pinger(threads, ping));
            }
            return AsyncWorkload.awaitSum(pongs, name());
        });
        return AsyncWorkload.check(name() + " sum of pongs", expected(), AsyncWorkload.await(all, name()));
    }

    /** One pinger on its own thread: starts its ponger, pings, waits for the checked pong. */
    private long pinger(ExecutorService threads, int ping) {
        CompletableFuture<Long> toPonger = new CompletableFuture<>();
        CompletableFuture<Long> toPinger = new CompletableFuture<>();
        threads.execute(() -> {                                                  // the ponger
            try {
                toPinger.complete(AsyncWorkload.await(toPonger, name()) + 1);
            } catch (RuntimeException e) {
                toPinger.completeExceptionally(e);              // the pinger fails with it
            }
        });
        toPonger.complete((long) ping);
        long pong = AsyncWorkload.await(toPinger, name());
        checkPong(ping, pong);
        return pong;
    }
}
