/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The in-process transport without latency queues its deliveries for its one thread instead of
 * scheduling each on its timer (LocalTransport's overview); what it promised stays: every delivery
 * runs on one thread, one at a time, each sender's messages in the order sent, and data the
 * bandwidth delays still arrives, on that thread, while messages without delay keep coming.
 */
class ZeroLatencyDeliveriesKeepTheirOrderTest {

    @Test
    void eachSendersMessagesArriveInOrderOneAtATimeOnOneThread() throws Exception {
        int senders = 4;
        int each = 20_000;
        LocalTransport transport = new LocalTransport(1e12, 0);
        ClusterWorker worker = new ClusterWorker(0, 1, transport);
        Map<String, Long> last = new HashMap<>();     // the delivery thread's only, if there is one
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<String> outOfOrder = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch delivered = new CountDownLatch(senders * each);
        try {
            transport.connect(List.of(worker), m -> {
                if (inside.incrementAndGet() != 1) {
                    overlaps.incrementAndGet();
                }
                threads.add(Thread.currentThread());
                Message.TaskRunning r = (Message.TaskRunning) m;
                Long previous = last.put(r.key(), r.attempt());
                long expected = previous == null ? 0 : previous + 1;
                if (r.attempt() != expected && outOfOrder.size() < 10) {
                    outOfOrder.add(r.key() + ": " + r.attempt() + " after " + previous);
                }
                inside.decrementAndGet();
                delivered.countDown();
            });
            List<Thread> sending = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                String key = "sender-" + s;
                Thread t = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        transport.toScheduler(new Message.TaskRunning(0, key, i, 0));
                    }
                }, key);
                sending.add(t);
                t.start();
            }
            for (Thread t : sending) {
                t.join(TimeUnit.MINUTES.toMillis(1));
            }

            assertThat(delivered.await(1, TimeUnit.MINUTES)).as("every message delivered, %d left",
                    delivered.getCount()).isTrue();
            assertThat(outOfOrder).as("messages out of their sender's order").isEmpty();
            assertThat(overlaps.get()).as("deliveries that overlapped another").isZero();
            assertThat(threads).as("the threads that delivered").hasSize(1);
            assertThat(threads.iterator().next().getName()).isEqualTo("cluster-transport");
        } finally {
            worker.shutdown();
            transport.close();
        }
    }

    @Test
    void dataDelayedByTheBandwidthArrivesOnTheSameThreadWhileMessagesKeepComing() throws Exception {
        // 100,000 bytes at 1 MB/s: delivered 100 ms after the fetch, behind whatever is queued by then
        LocalTransport transport = new LocalTransport(1e6, 0);
        ClusterWorker holder = new ClusterWorker(0, 1, transport);
        Set<Thread> messageThreads = ConcurrentHashMap.newKeySet();
        AtomicInteger messages = new AtomicInteger();
        try {
            transport.connect(List.of(holder), m -> {
                messageThreads.add(Thread.currentThread());
                messages.incrementAndGet();
            });
            holder.store().put("v", "value", 100_000);
            CompletableFuture<Thread> fetchedOn = transport.fetch("v", 0, 1)
                    .thenApply(v -> Thread.currentThread());
            long sent = 0;
            // at least a thousand, should this thread get its core back only after the delivery (a
            // loaded machine): with none sent, there were no message threads to compare
            while ((!fetchedOn.isDone() || sent < 1_000) && sent < 1_000_000) {   // bounded: the queue holds what is not delivered yet
                transport.toScheduler(new Message.TaskRunning(0, "k", sent++, 0));
            }

            assertThat(fetchedOn).as("the fetch, with %d messages sent meanwhile", sent)
                    .succeedsWithin(1, TimeUnit.MINUTES);
            long total = sent;
            long waitUntil = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (messages.get() < total && System.nanoTime() - waitUntil < 0) {
                Thread.sleep(1);
            }
            assertThat(messages.get()).as("messages delivered").isEqualTo((int) total);
            assertThat(messageThreads).as("the threads that delivered messages").hasSize(1)
                    .containsExactly(fetchedOn.get());
        } finally {
            holder.shutdown();
            transport.close();
        }
    }
}
