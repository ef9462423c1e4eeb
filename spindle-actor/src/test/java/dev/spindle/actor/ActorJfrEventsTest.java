/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static dev.spindle.testkit.JfrCapture.named;
import static dev.spindle.testkit.JfrCapture.record;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The actors' flight recorder events: long activations and deep mailboxes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorJfrEventsTest {

    /** An actor whose messages can hold it up. */
    static final class Slow {
        void sleep(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        void await(CountDownLatch latch) {
            try {
                latch.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void anActivationLongerThanTheThresholdIsRecordedWithItsMessages() throws Exception {
        List<RecordedEvent> events = record(Map.of("dev.spindle.ActorActivation#threshold", "100 ms"), () -> {
            try (ActorSystem system = ActorSystem.create()) {
                ActorRef<Slow> quick = system.spawn(Slow::new, ActorConfig.builder().name("quick").build());
                quick.ask(s -> 1).get(10, TimeUnit.SECONDS);
                ActorRef<Slow> slow = system.spawn(Slow::new, ActorConfig.builder().name("slow").build());
                CountDownLatch go = new CountDownLatch(1);
                slow.tell(s -> s.await(go));
                slow.tell(s -> s.sleep(250));              // queued behind the first: same activation
                go.countDown();
                slow.ask(s -> 1).get(10, TimeUnit.SECONDS);
            }
        }, "dev.spindle.ActorActivation");

        // "quick" stays under the threshold unless the machine stalls its thread for 100 ms
        assertThat(named(events, "dev.spindle.ActorActivation")).filteredOn(e -> e.getString("actor").equals("slow"))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.getDuration().toMillis()).isGreaterThanOrEqualTo(100))
                .anySatisfy(e -> {
                    assertThat(e.getDuration().toMillis()).isGreaterThanOrEqualTo(250);
                    assertThat(e.getInt("messages")).isGreaterThanOrEqualTo(2);
                });
    }

    @Test
    void anActivationStartingWithADeepMailboxReportsTheDepth() throws Exception {
        for (int capacity : new int[] {ActorConfig.UNBOUNDED, 100}) {
            List<RecordedEvent> events = record(Map.of("dev.spindle.MailboxDepth#depth", "5"), () -> {
                try (ActorSystem system = ActorSystem.create()) {
                    ActorRef<Slow> actor = system.spawn(Slow::new, ActorConfig.builder().name("deep")
                            .maxMessagesPerActivation(1).mailboxCapacity(capacity).build());
                    CountDownLatch go = new CountDownLatch(1);
                    actor.tell(s -> s.await(go));          // holds the first activation
                    for (int i = 0; i < 10; i++) {
                        actor.tell(s -> { });
                    }
                    go.countDown();
                    actor.ask(s -> 1).get(10, TimeUnit.SECONDS);
                }
            }, "dev.spindle.MailboxDepth");

            boolean bounded = capacity != ActorConfig.UNBOUNDED;
            List<RecordedEvent> deep = named(events, "dev.spindle.MailboxDepth");
            // one message per activation: the activations that start with 11, 10, ... 5 waiting
            assertThat(deep).as("capacity %s", capacity).isNotEmpty().allSatisfy(e -> {
                assertThat(e.getString("actor")).isEqualTo("deep");
                assertThat(e.getLong("depth")).isGreaterThanOrEqualTo(5);
                assertThat(e.getBoolean("exact")).isEqualTo(bounded);
                assertThat(e.getInt("capacity")).isEqualTo(bounded ? 100 : -1);
            });
            if (bounded) {
                assertThat(deep).extracting(e -> e.getLong("depth")).contains(10L, 5L).doesNotContain(4L);
            } else {
                assertThat(deep).extracting(e -> e.getLong("depth")).containsOnly(5L);  // counted up to the setting
                assertThat(deep).hasSizeGreaterThanOrEqualTo(5);
            }
        }
    }
}
