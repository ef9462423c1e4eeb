/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The default failure handler prints a failed tell's stack trace, whose lines are the throwables'
 * {@code toString()}, the application's code. One that threw escaped {@code printStackTrace}, the
 * system ignored what the handler threw, and all that stderr showed was "message to actor 'x'
 * failed:", with nothing of what failed or where. It now prints the failure's class and frames.
 */
@Timeout(30)
class PrintingHandlerWithAThrowingToStringTest {

    /** A failure whose message reads a field its constructor never set. */
    static final class Undescribable extends RuntimeException {
        @Override
        public String getMessage() {
            throw new IllegalStateException("no message yet");
        }
    }

    @Test
    void aFailureWhoseToStringThrowsIsStillPrintedByItsClassAndFrames() {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        String printed = printedToStderr(() -> {
            try (ActorSystem system = ActorSystem.create(manual)) {   // the printing handler
                ActorRef<StringBuilder> ref = system.spawn(StringBuilder::new,
                        ActorConfig.builder().name("undescribable").build());
                ref.tell(sb -> failHere());
                manual.runAll();                                       // runs the handler on this thread
            }
            manual.runAll();
        });
        assertThat(printed).contains("message to actor 'undescribable' failed");
        assertThat(printed).contains(Undescribable.class.getName());
        assertThat(printed).contains("failHere");
    }

    @Test
    void aCauseWhoseToStringThrowsLeavesTheFailurePrinted() {
        TestSchedulers.Manual manual = new TestSchedulers.Manual();
        String printed = printedToStderr(() -> {
            try (ActorSystem system = ActorSystem.create(manual)) {
                ActorRef<StringBuilder> ref = system.spawn(StringBuilder::new,
                        ActorConfig.builder().name("wrapped").build());
                ref.tell(sb -> {
                    throw new IllegalStateException("outer failure", new Undescribable());
                });
                manual.runAll();
            }
            manual.runAll();
        });
        assertThat(printed).contains("java.lang.IllegalStateException: outer failure");
        assertThat(printed).contains(IllegalStateException.class.getName() + " (printing its stack trace stopped");
    }

    private static void failHere() {
        throw new Undescribable();
    }

    private static String printedToStderr(Runnable action) {
        PrintStream err = System.err;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(err);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
