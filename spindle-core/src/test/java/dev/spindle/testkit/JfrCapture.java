/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Runs an action under a flight recording of the named events (threshold zero, stack traces on,
 * unless {@code settings} say otherwise), then reads the events back from the dumped file. Shared
 * by the JFR tests of every module (the core's test-jar).
 */
public final class JfrCapture {

    /** An action that may throw. */
    @FunctionalInterface
    public interface Action {
        void run() throws Exception;
    }

    private JfrCapture() {
    }

    /** Records {@code events} at threshold zero while {@code action} runs; returns them all. */
    public static List<RecordedEvent> record(Action action, String... events) throws Exception {
        return record(Map.of(), action, events);
    }

    /**
     * As {@link #record(Action, String...)}, with extra settings ({@code "event#setting"} to
     * value, as in a {@code .jfc} file), applied after the defaults.
     */
    public static List<RecordedEvent> record(Map<String, String> settings, Action action, String... events)
            throws Exception {
        Path file = Files.createTempFile("spindle-test", ".jfr");
        try (Recording r = new Recording()) {
            for (String e : events) {
                r.enable(e).withThreshold(Duration.ZERO).withStackTrace();
            }
            if (!settings.isEmpty()) {
                Map<String, String> all = new java.util.HashMap<>(r.getSettings());
                all.putAll(settings);
                r.setSettings(all);
            }
            r.start();
            try {
                action.run();
            } finally {
                r.stop();
            }
            r.dump(file);
            return RecordingFile.readAllEvents(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** The events of type {@code name} among {@code events}. */
    public static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).collect(Collectors.toList());
    }
}
