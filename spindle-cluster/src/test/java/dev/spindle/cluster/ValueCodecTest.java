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
import dev.spindle.cluster.testkit.Functions;
import java.lang.invoke.SerializedLambda;
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
        // absent from a frame that may leave it out (a result's value): refused as a peer's
        // malformed value, which the transports turn into the task's failure; it was a
        // NullPointerException that escaped them (found by review, session 40)
        assertThatThrownBy(() -> ValueCodec.read(null, FILTER)).isInstanceOf(SecurityException.class)
                .hasMessage("malformed frame: value missing");
    }

    // ---- lambdas: the common task function without Java serialisation -------------------

    private static final int LAMBDA = 0x09;

    @Test
    void aLambdaCapturingScalarsTakesTheCompactFormAndRunsAsBefore() throws Exception {
        TaskFunction<Long> f = Functions.plus(40, 2, "x");
        byte[] compact = ValueCodec.write(f, 1 << 20);
        assertThat(compact[0]).as("the lambda tag, not Java serialisation's magic").isEqualTo((byte) LAMBDA);
        assertThat(compact.length).as("smaller than its Java stream").isLessThan(JavaSerial.serialize(f).length / 2);
        Object read = ValueCodec.read(compact, FILTER);
        assertThat(read).isInstanceOf(TaskFunction.class);
        assertThat(((TaskFunction<?>) read).apply(List.of())).isEqualTo(42L);
        assertThat(((TaskFunction<?>) ValueCodec.read(ValueCodec.write(Functions.constant(), 1000), FILTER)).apply(List.of()))
                .isEqualTo("constant");
    }

    @Test
    void aLambdaCapturingAnythingElseIsJavaSerialisedAsBefore() throws Exception {
        byte[] bytes = ValueCodec.write(Functions.sizeOf(List.of(1, 2, 3)), 1 << 20);
        assertThat(bytes[0]).isEqualTo((byte) 0xAC);
        assertThat(((TaskFunction<?>) ValueCodec.read(bytes, FILTER)).apply(List.of())).isEqualTo(3);
    }

    @Test
    void aLambdaOfAClassOffTheAllowListIsRefusedAsItsJavaStreamIs() {
        TaskFunction<Long> local = args -> 1L;          // compiled in dev.spindle.cluster: not on FILTER's list
        byte[] compact = ValueCodec.write(local, 1 << 20);
        assertThat(compact[0]).isEqualTo((byte) LAMBDA);
        assertThatThrownBy(() -> ValueCodec.read(compact, FILTER)).isInstanceOf(InvalidClassException.class)
                .hasMessageContaining(ValueCodecTest.class.getName());
        assertThatThrownBy(() -> ValueCodec.read(JavaSerial.serialize(local), FILTER)).isInstanceOf(InvalidClassException.class);
        // a filter that refuses SerializedLambda itself refuses the compact form too
        ObjectInputFilter noLambdas = ObjectInputFilter.Config.createFilter("!java.lang.invoke.SerializedLambda;*");
        assertThatThrownBy(() -> ValueCodec.read(ValueCodec.write(Functions.constant(), 1000), noLambdas))
                .isInstanceOf(InvalidClassException.class).hasMessageContaining("SerializedLambda");
    }

    /** The attacker writes the fields by hand. */
    private static byte[] forged(String capturing, String implMethod, int kind, int captured, byte[] tail) {
        SerializedLambda s = serializedLambda(Functions.plus(1, 1, "a"));
        WireWriter out = new WireWriter().u8(LAMBDA).string(capturing).string(s.getFunctionalInterfaceClass())
                .string(s.getFunctionalInterfaceMethodName()).string(s.getFunctionalInterfaceMethodSignature()).u8(kind)
                .string(s.getImplClass()).string(implMethod).string(s.getImplMethodSignature())
                .string(s.getInstantiatedMethodType()).varLong(captured);
        byte[] head = out.toByteArray();
        byte[] all = java.util.Arrays.copyOf(head, head.length + tail.length);
        System.arraycopy(tail, 0, all, head.length, tail.length);
        return all;
    }

    private static SerializedLambda serializedLambda(Object lambda) {
        try {
            java.lang.reflect.Method m = lambda.getClass().getDeclaredMethod("writeReplace");
            m.setAccessible(true);
            return (SerializedLambda) m.invoke(lambda);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void forgedOrMalformedLambdasAreRefusedWithoutRunningAnything() throws Exception {
        SerializedLambda real = serializedLambda(Functions.plus(1, 1, "a"));
        byte[] args = new WireWriter().u8(0x02).zigZag(5).u8(0x03).zigZag(1).u8(0x07).string("ab").toByteArray();
        // the genuine fields read back: the forging helper itself is right
        assertThat(((TaskFunction<?>) ValueCodec.read(forged(real.getCapturingClass(), real.getImplMethodName(),
                real.getImplMethodKind(), 3, args), FILTER)).apply(List.of())).isEqualTo(7L);
        // an allowed class, but a method that is none of its serialisable lambdas: $deserializeLambda$ refuses it
        assertThatThrownBy(() -> ValueCodec.read(forged(real.getCapturingClass(), "exit",
                real.getImplMethodKind(), 3, args), FILTER)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("unreadable payload");
        // a class that does not exist
        assertThatThrownBy(() -> ValueCodec.read(forged("no/such/Capturer", real.getImplMethodName(),
                real.getImplMethodKind(), 3, args), FILTER)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("no.such.Capturer");
        // a class off the list is refused before it is initialised or called
        assertThatThrownBy(() -> ValueCodec.read(forged("java/io/File", "x", real.getImplMethodKind(), 0, new byte[0]),
                FILTER)).isInstanceOf(InvalidClassException.class).hasMessageContaining("java.io.File");
        // an implementation kind no method handle has
        assertThatThrownBy(() -> ValueCodec.read(forged(real.getCapturingClass(), real.getImplMethodName(), 10, 3, args),
                FILTER)).isInstanceOf(SecurityException.class).hasMessageContaining("kind 10");
        // more captured values than a method can take, or than the bytes left could hold
        assertThatThrownBy(() -> ValueCodec.read(forged(real.getCapturingClass(), real.getImplMethodName(),
                real.getImplMethodKind(), 256, new byte[300]), FILTER)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("captured value count 256 over its bound");
        assertThatThrownBy(() -> ValueCodec.read(forged(real.getCapturingClass(), real.getImplMethodName(),
                real.getImplMethodKind(), 200, args), FILTER)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("over its bound");
        // a captured value that is not a scalar (a nested lambda, a byte array, a Java stream) is no value here
        for (int tag : new int[] {LAMBDA, 0x08, 0xAC}) {
            assertThatThrownBy(() -> ValueCodec.read(forged(real.getCapturingClass(), real.getImplMethodName(),
                    real.getImplMethodKind(), 1, new byte[] {(byte) tag, 0}), FILTER)).isInstanceOf(SecurityException.class)
                    .hasMessageContaining("unknown value tag");
        }
        // a class name over its bound, truncated fields, and bytes after the lambda
        assertThatThrownBy(() -> ValueCodec.read(new WireWriter().u8(LAMBDA).varLong(1L << 30).toByteArray(), FILTER))
                .isInstanceOf(SecurityException.class).hasMessageContaining("over its bound");
        byte[] whole = forged(real.getCapturingClass(), real.getImplMethodName(), real.getImplMethodKind(), 3, args);
        assertThatThrownBy(() -> ValueCodec.read(java.util.Arrays.copyOf(whole, whole.length - 1), FILTER))
                .isInstanceOf(SecurityException.class).hasMessageContaining("malformed frame");
        assertThatThrownBy(() -> ValueCodec.read(java.util.Arrays.copyOf(whole, whole.length + 1), FILTER))
                .isInstanceOf(SecurityException.class).hasMessageContaining("after the last message");
    }
}
