/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSON reader {@code --forks} reads child reports with, including input it must refuse. */
class MiniJsonTest {

    @Test
    @SuppressWarnings("unchecked")
    void readsObjectsArraysStringsNumbersAndLiteralsInOrder() {
        Object v = MiniJson.parse(" {\"b\": [1, -2.5e1, true, false, null], \"a\": \"x\\\"y\\\\z\\n\\u00e9\\/\","
                + " \"c\": {}, \"d\": []} ");
        assertThat(v).isInstanceOf(Map.class);
        Map<String, Object> m = (Map<String, Object>) v;
        assertThat(m.keySet()).containsExactly("b", "a", "c", "d");
        assertThat((List<Object>) m.get("b")).containsExactly(1.0, -25.0, true, false, null);
        assertThat(m.get("a")).isEqualTo("x\"y\\z\n\u00e9/");
        assertThat((Map<?, ?>) m.get("c")).isEmpty();
        assertThat((List<?>) m.get("d")).isEmpty();
    }

    @Test
    void refusesMalformedText() {
        for (String bad : List.of("", "{", "{\"a\" 1}", "{\"a\": 1,}", "[1 2]", "\"open", "tru", "{} x", "[01x]",
                "\"\\q\"", "\"\\u12\"", "{a: 1}", "\"a\tb\"", "-")) {
            assertThatThrownBy(() -> MiniJson.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("bad JSON at offset");
        }
    }

    @Test
    void refusesDeepNestingWithoutOverflowingTheStack() {
        char[] open = new char[100_000];
        Arrays.fill(open, '[');
        assertThatThrownBy(() -> MiniJson.parse(new String(open)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("nested deeper than 32");
        assertThat(MiniJson.parse("[".repeat(32) + "]".repeat(32))).isInstanceOf(List.class);
    }

    @Test
    void refusesTextLongerThanTheBound() {
        String longText = "\"" + "a".repeat(MiniJson.MAX_LENGTH) + "\"";
        assertThatThrownBy(() -> MiniJson.parse(longText))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than " + MiniJson.MAX_LENGTH);
    }
}
