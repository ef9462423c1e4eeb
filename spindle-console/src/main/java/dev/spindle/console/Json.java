/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import java.util.function.BiConsumer;

/**
 * The few JSON writes the console needs, so that it has no dependency: names (which come from the
 * application and may hold anything, a lone surrogate included) are escaped, numbers written as
 * they are, NaN and infinities as {@code null}.
 */
final class Json {

    private Json() {
    }

    /** Appends {@code "key":} to an object under construction. */
    static StringBuilder key(StringBuilder sb, String key) {
        return string(sb, key).append(':');
    }

    /** Appends {@code s} as a JSON string. */
    static StringBuilder string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    // control characters, and < > & so the text is inert even if pasted into HTML;
                    // and a surrogate that is not half of a pair, which UTF-8 cannot carry (the
                    // encoder wrote '?' for it) but a JSON escape can, as JavaScript strings do
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029'
                            || loneSurrogate(s, i)) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    /** Whether {@code s.charAt(i)} is a surrogate without its other half beside it. */
    static boolean loneSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }

    /** Appends a number; NaN and infinities (a rate with no interval yet) as {@code null}. */
    static StringBuilder number(StringBuilder sb, double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return sb.append("null");
        }
        if (d == Math.rint(d) && Math.abs(d) < 0x1p63) {
            return sb.append((long) d);
        }
        if (Math.abs(d) >= 1e15) {
            return sb.append(d);               // d * 1000 would overflow a long; no fraction worth rounding
        }
        return sb.append(Math.round(d * 1000) / 1000.0);
    }

    /** Appends {@code "key":value,} for a number. */
    static StringBuilder field(StringBuilder sb, String key, double value) {
        return number(key(sb, key), value).append(',');
    }

    /** Appends {@code "key":"value",} for a string. */
    static StringBuilder field(StringBuilder sb, String key, String value) {
        return string(key(sb, key), value).append(',');
    }

    /** Removes a trailing comma left by the field writers before a closing bracket. */
    static StringBuilder close(StringBuilder sb, char bracket) {
        if (sb.charAt(sb.length() - 1) == ',') {
            sb.setLength(sb.length() - 1);
        }
        return sb.append(bracket);
    }

    /**
     * Appends {@code "key":[{...},...],}: one object per item, whose fields {@code fields} writes
     * (with the field writers above, trailing commas and all).
     */
    static <E> StringBuilder array(StringBuilder sb, String key, Iterable<E> items,
            BiConsumer<StringBuilder, E> fields) {
        key(sb, key).append('[');
        for (E item : items) {
            sb.append('{');
            fields.accept(sb, item);
            close(sb, '}').append(',');
        }
        return close(sb, ']').append(',');
    }
}
