/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link Sizes#measure} reports for every value what it reported when it wrote each value on a
 * fresh {@link ObjectOutputStream} of its own ({@link #oracle}, that code as it was): now that
 * strings, boxed primitives and primitive arrays are worked out without writing them and other
 * values are written on a stream the thread keeps, reset between values. The values come one after
 * another on one thread, so a size that depended on what was measured before (a class descriptor
 * or an object written as a handle to an earlier value's) shows as a difference.
 */
class SizesMatchAFreshStreamPropertiesTest {

    /** Sizes.measure as it was: the value written on a stream of its own. */
    static long oracle(Object value) throws NotSerializableException {
        if (value == null) {
            return 0;
        }
        if (value instanceof Sized s) {
            return s.sizeInBytes();
        }
        if (!(value instanceof Serializable)) {
            throw new NotSerializableException(value.getClass().getName());
        }
        Counter counter = new Counter();
        try (ObjectOutputStream out = new ObjectOutputStream(counter)) {
            out.writeObject(value);
        } catch (NotSerializableException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return counter.count;
    }

    @Property(tries = 300)
    void everyValueMeasuresAsOnAFreshStream(@ForAll("values") List<Object> values) throws Exception {
        for (Object v : values) {
            assertThat(Sizes.measure(v)).as("%s", describe(v)).isEqualTo(oracle(v));
        }
    }

    /** The same values in the same order on another thread, and again on this one: no thread's history counts. */
    @Property(tries = 50)
    void aValueMeasuresTheSameOnEveryThreadWhateverCameBefore(@ForAll("values") List<Object> values) throws Exception {
        List<Long> here = new ArrayList<>();
        for (Object v : values) {
            here.add(Sizes.measure(v));
        }
        List<Long> there = new ArrayList<>();
        Thread t = new Thread(() -> {
            for (int i = values.size() - 1; i >= 0; i--) {  // in the other order
                try {
                    there.add(0, Sizes.measure(values.get(i)));
                } catch (NotSerializableException e) {
                    throw new AssertionError(e);
                }
            }
        });
        t.start();
        t.join(TimeUnit.MINUTES.toMillis(1));
        assertThat(there).isEqualTo(here);
    }

    /** Strings on both sides of the switch to a long string (modified UTF-8 over 65,535 bytes), in 1, 2 and 3-byte characters. */
    @Example
    void stringsAroundTheLongStringSwitch() throws Exception {
        for (char c : new char[] {'a', '\0', '\u00e9', '\u07ff', '\u0800', '\ud800', '\uffff'}) {
            int width = c == '\0' || (c >= 0x80 && c < 0x800) ? 2 : c < 0x80 ? 1 : 3;
            int around = 0xFFFF / width;
            for (int n = around - 2; n <= around + 2; n++) {
                String s = String.valueOf(c).repeat(n);
                assertThat(Sizes.measure(s)).as("%d × U+%04X", n, (int) c).isEqualTo(oracle(s));
                assertThat(Sizes.measure(List.of(s))).as("in a list").isEqualTo(oracle(List.of(s)));
            }
        }
    }

    /** Boxed values' extremes, and arrays empty and long. */
    @Example
    void boxedValuesAndArrays() throws Exception {
        Object[] values = {Integer.MIN_VALUE, Long.MAX_VALUE, Double.NaN, -0.0f, Short.MIN_VALUE, Byte.MAX_VALUE,
            Character.MAX_VALUE, Boolean.TRUE, new byte[0], new byte[100_000], new int[0], new int[70_000],
            new long[3], new double[5], new char[7], new Object[] {1, "a"}, new String[] {"a", "a"}};
        for (Object v : values) {
            assertThat(Sizes.measure(v)).as("%s", describe(v)).isEqualTo(oracle(v));
        }
    }

    /**
     * A value that cannot be written (a thread in a list) throws as before, and the values measured
     * after it are not affected by what the failed write left on the thread's stream; nor are those
     * after a value too large for the thread to keep its stream.
     */
    @Example
    void afterAFailureOrALargeValueTheNextMeasureAsBefore() throws Exception {
        List<Object> bad = new ArrayList<>(List.of("x", new BigDecimal("1.5")));
        bad.add(new Thread(() -> { }));
        assertThatThrownBy(() -> Sizes.measure(bad)).isInstanceOf(NotSerializableException.class);
        List<Object> good = new ArrayList<>(List.of("x", new BigDecimal("1.5")));
        assertThat(Sizes.measure(good)).isEqualTo(oracle(good));
        List<Object> large = new ArrayList<>(List.of(new byte[(int) Sizes.KEEP_LIMIT * 2], "x"));
        assertThat(Sizes.measure(large)).isEqualTo(oracle(large));
        assertThat(Sizes.measure(good)).isEqualTo(oracle(good));
        assertThatThrownBy(() -> Sizes.measure(new Thrower())).isInstanceOf(IllegalStateException.class);
        assertThat(Sizes.measure(good)).isEqualTo(oracle(good));
    }

    /** A value whose own writeObject measures another value on the same thread, the thread's stream in use. */
    @Example
    void aValueThatMeasuresAnotherAsItIsWritten() throws Exception {
        Nesting v = new Nesting(new ArrayList<>(List.of("inner", 1, 2L)));
        long measured = Sizes.measure(v);
        assertThat(v.innerMeasured).isEqualTo(oracle(v.inner));
        assertThat(measured).isEqualTo(oracle(v));
        assertThat(Sizes.measure(v.inner)).isEqualTo(oracle(v.inner));
    }

    @Provide
    Arbitrary<List<Object>> values() {
        return value(3).list().ofMaxSize(8);
    }

    private static Arbitrary<Object> value(int depth) {
        Arbitrary<Object> leaf = Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(40).map(s -> (Object) s),
                // long ones: near 65,535 bytes of modified UTF-8, in characters of 1, 2 or 3 bytes
                net.jqwik.api.Combinators.combine(Arbitraries.of('a', '\0', '\u00e9', '\u0800', '\ud83d'),
                        Arbitraries.integers().between(21_000, 70_000), Arbitraries.strings().ofMaxLength(3))
                        .as((c, n, tail) -> (Object) (String.valueOf(c).repeat(n) + tail)),
                Arbitraries.integers().map(i -> (Object) i),
                Arbitraries.longs().map(l -> (Object) l),
                Arbitraries.doubles().map(d -> (Object) d),
                Arbitraries.floats().map(f -> (Object) f),
                Arbitraries.shorts().map(s -> (Object) s),
                Arbitraries.bytes().map(b -> (Object) b),
                Arbitraries.chars().map(c -> (Object) c),
                Arbitraries.of(Boolean.TRUE, Boolean.FALSE).map(b -> (Object) b),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300).map(a -> (Object) a),
                Arbitraries.integers().array(int[].class).ofMaxSize(50).map(a -> (Object) a),
                Arbitraries.longs().array(long[].class).ofMaxSize(50).map(a -> (Object) a),
                Arbitraries.doubles().array(double[].class).ofMaxSize(50).map(a -> (Object) a),
                Arbitraries.of(TimeUnit.class).map(u -> (Object) u),
                Arbitraries.integers().between(-5, 5).map(i -> (Object) new Point(i, "p" + i)),
                Arbitraries.<Object>just(null));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<Object> inner = value(depth - 1);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(4, leaf),
                net.jqwik.api.Tuple.of(1, inner.list().ofMaxSize(5).map(l -> (Object) new ArrayList<>(l))),
                net.jqwik.api.Tuple.of(1, inner.list().ofMaxSize(5).map(l -> {
                    // the same objects twice: the second time each is a handle to the first
                    ArrayList<Object> twice = new ArrayList<>(l);
                    twice.addAll(l);
                    return (Object) twice;
                })),
                net.jqwik.api.Tuple.of(1, Arbitraries.maps(Arbitraries.strings().ofMaxLength(5), inner).ofMaxSize(4)
                        .map(m -> (Object) new HashMap<>(m))),
                net.jqwik.api.Tuple.of(1, inner.map(v -> (Object) new Box(v))));
    }

    private static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        String s = v instanceof byte[] b ? "byte[" + b.length + "]" : String.valueOf(v);
        return v.getClass().getName() + " " + (s.length() > 80 ? s.substring(0, 80) + "…" : s);
    }

    record Point(int x, String label) implements Serializable {
    }

    /** A serialisable class with a custom writeObject, which writes block data besides its fields. */
    static final class Box implements Serializable {
        private static final long serialVersionUID = 1L;
        final Object value;

        Box(Object value) {
            this.value = value;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
            out.writeInt(42);
            out.writeUTF("extra");
        }

        @Override
        public String toString() {
            return "Box(" + value + ")";
        }
    }

    /** Measures its inner value as it is written. */
    static final class Nesting implements Serializable {
        private static final long serialVersionUID = 1L;
        final ArrayList<Object> inner;
        transient long innerMeasured;

        Nesting(ArrayList<Object> inner) {
            this.inner = inner;
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            innerMeasured = Sizes.measure(inner);
            out.defaultWriteObject();
        }
    }

    /** Its writeObject throws an unchecked exception halfway through. */
    static final class Thrower implements Serializable {
        private static final long serialVersionUID = 1L;

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.writeInt(1);
            throw new IllegalStateException("halfway");
        }
    }

    private static final class Counter extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }
}
