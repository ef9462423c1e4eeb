/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The async runtime's flight recorder events: long polls, with task id and spawn site; rejections. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncJfrEventsTest {

    /** Far above a poll that returns at once, even on a loaded machine; far below the slow polls. */
    private static final Map<String, String> LONG_POLL_100_MS = Map.of("dev.spindle.LongPoll#threshold", "100 ms");
    private static final long SLOW_POLL_MILLIS = 250;

    /** Sleeps in each of its two polls (yielding in between), then returns 42. */
    static final class SlowTwice implements AsyncTask<Integer> {
        private int polls;

        @Override
        public Poll<Integer> poll(Context cx) {
            sleep(SLOW_POLL_MILLIS);
            if (++polls < 2) {
                cx.waker().wake();
                return Poll.pending();
            }
            return Poll.ready(42);
        }
    }

    @Test
    void aLongPollNamesItsTaskAndWhereItWasSpawned() throws Exception {
        List<RecordedEvent> events = record(LONG_POLL_100_MS, () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("jfr-async").build()) {
                JoinHandle<Integer> fast = rt.spawn(cx -> Poll.ready(1));
                JoinHandle<Integer> slow = rt.spawn(new SlowTwice());
                assertThat(slow.get(10, TimeUnit.SECONDS)).isEqualTo(42);
                assertThat(fast.get(10, TimeUnit.SECONDS)).isEqualTo(1);
            }
        }, "dev.spindle.LongPoll");

        List<RecordedEvent> polls = named(events, "dev.spindle.LongPoll").stream()
                .filter(e -> e.getClass("taskClass").getName().equals(SlowTwice.class.getName())).toList();
        assertThat(polls).as("the slow task's two polls").hasSize(2).allSatisfy(e -> {
            assertThat(e.getString("runtime")).isEqualTo("jfr-async");
            assertThat(e.getInt("worker")).isZero();
            assertThat(e.getDuration().toMillis()).isGreaterThanOrEqualTo(SLOW_POLL_MILLIS);
            assertThat(e.getString("spawnSite")).startsWith(AsyncJfrEventsTest.class.getName()
                    + ".lambda$aLongPollNamesItsTaskAndWhereItWasSpawned$").contains("AsyncJfrEventsTest.java:");
            assertThat(e.getThread().getJavaName()).isEqualTo("jfr-async-worker-0");
        });
        assertThat(polls.get(0).getLong("taskId")).isPositive().isEqualTo(polls.get(1).getLong("taskId"));
    }

    /**
     * A recording with the JDK's own settings (what production JVMs often run continuously)
     * must not make every spawn walk the stack: LongPoll is off unless asked for.
     */
    @Test
    void aRecordingWithTheJdksDefaultSettingsTakesNoSpawnSites() throws Exception {
        for (String settings : new String[] {"default", "profile"}) {
            try (jdk.jfr.Recording r = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration(settings))) {
                r.start();
                assertThat(TaskInsight.atSpawn(false)).as("a spawn under JFR's %s settings", settings).isNull();
            }
        }
    }

    @Test
    void theSpawnSiteIsTakenOnlyWhileARecordingWantsLongPolls() throws Exception {
        assertThat(TaskInsight.atSpawn(false)).as("no recording: no stack walk, no allocation").isNull();
        List<TaskInsight> seen = new java.util.ArrayList<>();
        record(() -> seen.add(TaskInsight.atSpawn(false)), "dev.spindle.LongPoll");
        assertThat(seen).singleElement().satisfies(o -> assertThat(o.siteOrNull())
                .startsWith(AsyncJfrEventsTest.class.getName() + ".lambda$theSpawnSiteIsTakenOnlyWhileARecordingWantsLongPolls$"));
        record(Map.of("dev.spindle.LongPoll#enabled", "false"), () -> seen.add(TaskInsight.atSpawn(false)),
                "dev.spindle.WorkerPark");
        assertThat(seen.get(1)).as("a recording that disables LongPoll").isNull();
    }

    @Test
    void aTaskSpawnedBeforeTheRecordingGetsAnIdAtItsFirstLongPoll() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("jfr-before").build()) {
            CountDownLatch go = new CountDownLatch(1);
            AtomicBoolean armed = new AtomicBoolean();
            JoinHandle<Integer> early = rt.spawn(cx -> {
                if (!armed.get()) {                        // yields until the recording runs
                    // Sleep only in the poll after the one that sees go: a poll that began just
                    // before the recording started is not timed (the event was off at its start),
                    // and it may still read go as counted down (failed in CI under load).
                    armed.set(go.getCount() == 0);
                    cx.waker().wake();
                    return Poll.pending();
                }
                sleep(SLOW_POLL_MILLIS);
                return Poll.ready(7);
            });
            List<RecordedEvent> events = record(LONG_POLL_100_MS, () -> {
                go.countDown();
                assertThat(early.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            }, "dev.spindle.LongPoll");
            assertThat(named(events, "dev.spindle.LongPoll")).singleElement().satisfies(e -> {
                assertThat(e.getString("runtime")).isEqualTo("jfr-before");
                assertThat(e.getLong("taskId")).isPositive();
                assertThat(e.getString("spawnSite")).startsWith("unknown");
            });
        }
    }

    @Test
    void aSpawnAfterShutdownIsRecordedAsRejected() throws Exception {
        List<RecordedEvent> events = record(() -> {
            AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("jfr-closed").build();
            rt.close();
            assertThatThrownBy(() -> rt.spawn(cx -> Poll.ready(1))).isInstanceOf(RejectedExecutionException.class);
        }, "dev.spindle.RejectedSubmit");
        assertThat(named(events, "dev.spindle.RejectedSubmit")).singleElement().satisfies(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-closed");
            assertThat(e.getString("reason")).isEqualTo("runtime jfr-closed is shut down");
        });
    }

    @Test
    void parkedAsyncWorkersReportUnderTheRuntimesName() throws Exception {
        List<RecordedEvent> events = record(() -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("jfr-idle").build()) {
                assertThat(rt.spawn(cx -> Poll.ready(1)).get(10, TimeUnit.SECONDS)).isEqualTo(1);
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (rt.stats().parks() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
            }
        }, "dev.spindle.WorkerPark");
        assertThat(named(events, "dev.spindle.WorkerPark")).isNotEmpty().allSatisfy(e -> {
            assertThat(e.getString("scheduler")).isEqualTo("jfr-idle");
            assertThat(e.getThread().getJavaName()).isEqualTo("jfr-idle-worker-" + e.getInt("worker"));
        });
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
