/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.testkit.HostilePayloads;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
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
                .hasMessage("is more than " + (bytes.length - 1) + " bytes serialised, over the frame limit of "
                        + (bytes.length - 1));
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

    /**
     * Each array alone within the stream's length, but a chain of them as deep as a transport's
     * depth limit declaring that many elements apiece: refused as a limit before the second
     * array is allocated. It used to be read as far as the stream went, every array of the chain
     * allocated first (about 80 bytes for each byte received), and then failed as unreadable.
     * Found by review (session 40).
     */
    @Test
    void theArraysOfAStreamTogetherAreBoundedByItsLength() {
        int bytes = 64 * 1024;
        byte[] chain = HostilePayloads.nestedArrayChain(20, bytes, bytes);
        ObjectInputFilter anyDepth = ObjectInputFilter.Config.createFilter("maxdepth=30;java.lang.Object;!*");
        assertThatThrownBy(() -> JavaSerial.read(chain, 0, chain.length, anyDepth))
                .as("refused by the array budget, not read until the stream ran out")
                .isInstanceOf(InvalidClassException.class);
        byte[] one = HostilePayloads.nestedArrayChain(1, bytes, bytes);
        assertThatThrownBy(() -> JavaSerial.read(one, 0, one.length, anyDepth))
                .as("one array within the length is allowed, and then fails as truncated")
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("unreadable payload: ");
    }

    /** What that bound lets through: primitive arrays, nested arrays and sparse hash tables as the JDK writes them. */
    @Test
    void arraysAndHashTablesAsWrittenStayWithinTheBudget() throws Exception {
        ObjectInputFilter jdk = ObjectInputFilter.Config.createFilter("maxdepth=30;java.**;[*;!*");
        HashSet<Integer> sparse = new HashSet<>(16, 0.25f);
        HashMap<Integer, Object> map = new HashMap<>(4, 0.25f);
        for (int i = 0; i < 2_000; i++) {
            sparse.add(i);
            map.put(i, null);
        }
        long[] longs = new long[10_000];
        Arrays.fill(longs, 7);
        Object[] nested = {new Object[] {new Object[] {new int[100], "x"}}, new ArrayList<>(sparse), new boolean[3]};
        for (Object value : List.of(sparse, map, longs, nested, new Object[1_000], new ArrayList<>(List.of(1, 2, 3)))) {
            byte[] bytes = JavaSerial.serialize(value);
            assertThat(JavaSerial.read(bytes, 0, bytes.length, jdk)).usingRecursiveComparison().isEqualTo(value);
        }
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
