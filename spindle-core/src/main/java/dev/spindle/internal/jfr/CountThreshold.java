/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal.jfr;

import java.util.Set;
import jdk.jfr.SettingControl;

/**
 * A flight recorder setting holding a count (a {@code .jfc} file writes, say,
 * {@code <setting name="depth">1000</setting>}): the events that use it are committed only at or
 * above it. When several recordings set it, the lowest wins, as JFR's own thresholds do.
 *
 * <p>JFR makes one instance per event type; the value is also kept in a static field so the
 * event's hot path can bound its own measuring by it ({@link #current()}), which is sound because
 * exactly one event type (the actors' {@code dev.spindle.MailboxDepth}) uses this class.
 */
public final class CountThreshold extends SettingControl {

    /** Used when no recording sets a value. */
    public static final long DEFAULT = 1000;

    private static volatile long current = DEFAULT;
    private String value = Long.toString(DEFAULT);

    /** Constructor for JFR, which makes the instances. */
    public CountThreshold() {
    }

    /** The count in force now. */
    public static long current() {
        return current;
    }

    /** Whether {@code count} is at or above the count in force. */
    public static boolean reached(long count) {
        return count >= current;
    }

    @Override
    public String combine(Set<String> values) {
        long min = Long.MAX_VALUE;
        for (String v : values) {
            min = Math.min(min, parse(v));
        }
        return values.isEmpty() ? Long.toString(DEFAULT) : Long.toString(min);
    }

    @Override
    public void setValue(String settingValue) {
        value = settingValue;
        current = parse(settingValue);
    }

    @Override
    public String getValue() {
        return value;
    }

    /** A non-negative count; anything else (JFR passes settings through unchecked) is the default. */
    private static long parse(String v) {
        try {
            long n = Long.parseLong(v.trim());
            return n >= 0 ? n : DEFAULT;
        } catch (RuntimeException e) {
            return DEFAULT;
        }
    }
}
