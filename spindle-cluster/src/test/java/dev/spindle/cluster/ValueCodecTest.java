/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.math.BigInteger;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Nested values: the common types in a few bytes, the rest Java-serialised behind the allow-list. */
class ValueCodecTest {

    private static final ObjectInputFilter FILTER = ObjectInputFilter.Config.createFilter(
            SerialAllowList.pattern("dev.spindle.cluster.testkit", List.of(), 20, 10_000, 1 << 20, 1 << 20));

    @Provide
    Arbitrary<Object> values() {
        return Arbitraries.oneOf(Arbitraries.longs().map(Object.class::cast), Arbitraries.integers().map(Object.class::cast),
                Arbitraries.doubles().map(Object.class::cast), Arbitraries.of(true, false).map(Object.class::cast),
                Arbitraries.strings().ofMaxLength(50).map(Object.class::cast),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(100).map(Object.class::cast),
                Arbitraries.just(null), Arbitraries.integers().list().ofMaxSize(5).map(Object.class::cast),
                Arbitraries.bigIntegers().map(Object.class::cast));
    }

    @Property(tries = 1000)
    void everyValueRoundTrips(@ForAll("values") Object value) throws Exception {
        assertThat(ValueCodec.read(ValueCodec.write(value, 1 << 20), FILTER)).isEqualTo(value);
    }

    @Test
    void theCommonTypesTakeAFewBytesWithoutAClassName() {
        assertThat(ValueCodec.write(12_345L, 100)).hasSizeLessThan(5);
        assertThat(ValueCodec.write(7, 100)).hasSize(2);
        assertThat(ValueCodec.write(null, 100)).hasSize(1);
        assertThat(ValueCodec.write(BigInteger.ONE, 1000)[0]).as("Java serialisation's magic").isEqualTo((byte) 0xAC);
    }

    @Test
    void aValueOverTheLimitCannotBeWritten() {
        assertThatThrownBy(() -> ValueCodec.write(new byte[100], 50)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the value limit of 50");
        assertThatThrownBy(() -> ValueCodec.write(BigInteger.TEN.pow(1000), 50)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("over the value limit of 50");
        assertThatThrownBy(() -> ValueCodec.write(new Object(), 50)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot serialise");
    }

    @Test
    void malformedOrRefusedBytesAreRefused() {
        assertThatThrownBy(() -> ValueCodec.read(new byte[0], FILTER)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("truncated");
        assertThatThrownBy(() -> ValueCodec.read(new byte[] {0x7E}, FILTER)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("unknown value tag 0x7e");
        assertThatThrownBy(() -> ValueCodec.read(new byte[] {0x03, 2, 0}, FILTER)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("after the last message");
        // a byte array that declares 2 GiB in 6 bytes: refused on the length, nothing allocated
        assertThatThrownBy(() -> ValueCodec.read(new byte[] {0x08, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07},
                FILTER)).isInstanceOf(SecurityException.class).hasMessageContaining("over its bound");
        assertThatThrownBy(() -> ValueCodec.read(JavaSerial.serialize(new File("x")), FILTER))
                .isInstanceOf(InvalidClassException.class);
    }
}
