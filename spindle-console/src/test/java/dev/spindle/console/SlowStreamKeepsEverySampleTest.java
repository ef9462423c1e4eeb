/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cluster's steal events and task runs are sent once, in the sample after they were logged. An
 * event stream sent only the latest sample when it woke: a stream still writing the previous one
 * (a slow link, a short interval) skipped the samples in between, and the page never saw the
 * events and runs they carried.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowStreamKeepsEverySampleTest {

    private static final Pattern ID = Pattern.compile("\\{\"id\":(\\d+),\"key\"");

    private final List<StealEvent> log = new CopyOnWriteArrayList<>();

    private final ClusterView cluster = new ClusterView() {
        @Override
        public ClusterStats stats() {
            return new ClusterStats(List.of(), 0, 0, 0, 0, 0, 0, 0);
        }

        @Override
        public List<StealEvent> stealEvents() {
            return List.copyOf(log);
        }

        @Override
        public List<TaskEvent> taskEvents() {
            return List.of();
        }
    };

    @AfterEach
    void noHook() {
        Console.beforeStreamWrite = null;
    }

    @Test
    void aStreamHeldUpInAWriteSendsTheSamplesTakenMeanwhile() throws Exception {
        // a minute between samples: the test takes them itself, after the first
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMinutes(1)).start()) {
            while (!console.latest().contains("\"time\"")) {
                Thread.sleep(10);              // the sampler's first (bounded by the class timeout)
            }
            console.register("c", cluster);
            HttpResponse<java.io.InputStream> res = ConsoleTest.HTTP.send(
                    HttpRequest.newBuilder(console.uri().resolve("/events")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(res.statusCode()).isEqualTo(200);
            try (BufferedReader in = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
                nextData(in);                  // the sample the stream starts with
                CountDownLatch held = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                Console.beforeStreamWrite = () -> {
                    Console.beforeStreamWrite = null;
                    held.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                };
                log.add(event(1));
                console.sample();
                assertThat(held.await(30, TimeUnit.SECONDS)).as("the stream is held up in a write").isTrue();
                log.add(event(2));
                console.sample();              // taken while the stream still writes
                log.add(event(3));
                console.sample();
                release.countDown();
                List<Long> ids = new ArrayList<>();
                while (!ids.contains(3L)) {
                    ids.addAll(ids(nextData(in)));   // bounded by the class timeout
                }
                assertThat(ids).containsExactly(1L, 2L, 3L);
            }
        }
    }

    private static List<Long> ids(String data) {
        List<Long> ids = new ArrayList<>();
        int steals = data.indexOf("\"steals\":[");
        if (steals < 0) {
            return ids;
        }
        Matcher m = ID.matcher(data.substring(steals));
        while (m.find()) {
            ids.add(Long.parseLong(m.group(1)));
        }
        return ids;
    }

    private static String nextData(BufferedReader in) throws Exception {
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("data: ")) {
                return line.substring(6);
            }
        }
        throw new AssertionError("the stream ended");
    }

    private static StealEvent event(long id) {
        return new StealEvent(id, "k" + id, 0, 1, 0, StealEvent.Outcome.CONFIRMED, id * 100);
    }
}
