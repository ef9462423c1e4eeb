/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Serialisation with limits, and reading only through a filter. */
class JavaSerialTest {

    private static final ObjectInputFilter STRINGS_AND_LISTS =
            ObjectInputFilter.Config.createFilter("maxdepth=5;java.lang.String;java.lang.Object;java.util.ArrayList;!*");

    @Test
    void roundTripsThroughTheFilter() throws Exception {
        byte[] bytes = JavaSerial.serialize(new ArrayList<>(List.of("a", "b")));
        assertThat(JavaSerial.read(bytes, 0, bytes.length, STRINGS_AND_LISTS)).isEqualTo(List.of("a", "b"));
    }

    @Test
    void aValueOverTheLimitIsRefusedWithItsSize() {
        byte[] bytes = JavaSerial.serialize("x".repeat(100));
        assertThat(JavaSerial.serialize("x".repeat(100), bytes.length, "frame")).isEqualTo(bytes);
        assertThatThrownBy(() -> JavaSerial.serialize("x".repeat(100), bytes.length - 1, "frame"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("is " + bytes.length + " bytes serialised, over the frame limit of " + (bytes.length - 1));
    }

    @Test
    void somethingNotSerialisableIsAnIllegalArgument() {
        assertThatThrownBy(() -> JavaSerial.serialize(new Object())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot serialise java.lang.Object");
    }

    @Test
    void aRefusedClassIsToldApartFromGarbage() {
        byte[] refused = JavaSerial.serialize(Integer.valueOf(7));
        assertThatThrownBy(() -> JavaSerial.read(refused, 0, refused.length, STRINGS_AND_LISTS))
                .isInstanceOf(InvalidClassException.class);
        byte[] deep = JavaSerial.serialize(nested(10));
        assertThatThrownBy(() -> JavaSerial.read(deep, 0, deep.length, STRINGS_AND_LISTS))
                .isInstanceOf(InvalidClassException.class);
        byte[] garbage = {1, 2, 3, 4, 5};
        assertThatThrownBy(() -> JavaSerial.read(garbage, 0, garbage.length, STRINGS_AND_LISTS))
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("unreadable payload: ");
        byte[] truncated = JavaSerial.serialize("hello");
        assertThatThrownBy(() -> JavaSerial.read(truncated, 0, truncated.length - 2, STRINGS_AND_LISTS))
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("unreadable payload: ");
    }

    private static ArrayList<Object> nested(int depth) {
        ArrayList<Object> list = new ArrayList<>();
        ArrayList<Object> inner = list;
        for (int i = 0; i < depth; i++) {
            ArrayList<Object> next = new ArrayList<>();
            inner.add(next);
            inner = next;
        }
        return list;
    }
}
