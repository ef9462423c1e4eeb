/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.Message;
import dev.spindle.cluster.RemoteTaskException;
import dev.spindle.cluster.WireMessage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrameCodecTest {

    private static final java.util.UUID SESSION = java.util.UUID.randomUUID();

    private static final byte[] SECRET = "0123456789abcdef-test".getBytes(StandardCharsets.UTF_8);

    private final FrameCodec codec = new FrameCodec(SECRET, List.of());

    @Test
    void aSignedFrameRoundTrips() {
        Wire.Frame frame = new Wire.Frame(SESSION, 0, 5L, 2, 1, new Message.StealRequest(7, "k", 3));
        assertThat(codec.open(codec.seal(frame))).isEqualTo(frame);
        assertThat(codec.rejected()).isZero();
    }

    @Test
    void aFrameWithABadSignatureIsDropped() {
        byte[] frame = codec.seal(new Wire.Frame(SESSION, 0, 5L, 1, 1, new Message.DataAdded(1, "x")));
        frame[frame.length - 1] ^= 1;
        assertThatThrownBy(() -> codec.open(frame)).isInstanceOf(SecurityException.class).hasMessageContaining("signature");
        assertThat(codec.rejected()).isEqualTo(1);
    }

    @Test
    void aFrameSignedWithAnotherSecretIsDropped() {
        FrameCodec other = new FrameCodec("another-secret-0123456".getBytes(StandardCharsets.UTF_8), List.of());
        byte[] frame = other.seal(new Wire.Frame(SESSION, 0, 5L, 1, 1, new Message.DataAdded(1, "x")));
        assertThatThrownBy(() -> codec.open(frame)).isInstanceOf(SecurityException.class);
    }

    @Test
    void unsignedInputIsDropped() {
        assertThatThrownBy(() -> codec.open(new byte[] {1, 2, 3})).isInstanceOf(SecurityException.class);
        assertThatThrownBy(() -> codec.open(null)).isInstanceOf(SecurityException.class);
        assertThat(codec.rejected()).isEqualTo(2);
    }

    @Test
    void aTaskFailureTravelsAsTextAndBecomesTheSharedRemoteTaskException() {
        StackTraceElement[] trace = new Throwable().getStackTrace();
        WireMessage.Erred erred = new WireMessage.Erred(1, "k", 2, "java.io.IOException", "disk on fire", trace, 5);
        Wire.Frame frame = new Wire.Frame(SESSION, 1, 5L, Wire.COORDINATOR, 1, erred);
        Message.TaskErred read = ((WireMessage.Erred) codec.open(codec.seal(frame)).bodies().get(0)).toMessage();
        assertThat(read.error()).isInstanceOf(RemoteTaskException.class).hasMessage("java.io.IOException: disk on fire");
        assertThat(read.error().getStackTrace()).containsExactly(trace);
        assertThat(((RemoteTaskException) read.error()).remoteClass()).isEqualTo("java.io.IOException");
        assertThat(FrameCodec.allowList(List.of())).startsWith(RemoteTaskException.class.getName() + ";")
                .doesNotContain("dev.spindle.cluster.*;").endsWith("!*");
    }

    @Test
    void aClassOutsideTheAllowListIsRefusedEvenWhenSigned() {
        assertThatThrownBy(() -> codec.seal(new Wire.Frame(SESSION, 0, 5L, 1, 1, new File("/etc/passwd"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no wire form");
        // a nested value is the only place a class name can travel
        byte[] frame = codec.seal(new Wire.Frame(SESSION, 0, 5L, 1, 1,
                new WireMessage.Compute("k", 1, codec.serialize(new File("x")), List.of(), java.util.Map.of(), 0)));
        byte[] function = ((WireMessage.Compute) codec.open(frame).bodies().get(0)).function();
        assertThatThrownBy(() -> codec.deserialize(function)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("allow-list");
    }

    @Test
    void aBatchAndTheMembersListRoundTrip() {
        Wire.Members members = new Wire.Members(java.util.Map.of(0, java.util.UUID.randomUUID(), 3,
                java.util.UUID.randomUUID()), java.util.Map.of(0, 17L, 3, -5L));
        Wire.Frame frame = new Wire.Frame(SESSION, Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, 3, 99,
                List.of(members, new Message.ReleaseKey("a"), new Message.StealRequest(1, "b", 2)));
        assertThat(codec.open(codec.seal(frame))).isEqualTo(frame);
    }

    @Test
    void signedButMalformedFramesAreRefusedAndCounted() {
        byte[] good = codec.seal(new Wire.Frame(SESSION, 0, 5L, 1, 1, new Message.ReleaseKey("k")));
        // the payload after the signature: version, session (16), sender, incarnation (8), to, to's
        // incarnation (8), seq, count, tag
        int tag = FrameCodec.MAC_BYTES + 1 + 16 + 1 + 8 + 1 + 8 + 1 + 1;
        assertThatThrownBy(() -> codec.open(resigned(good, tag, 0x3F))).isInstanceOf(SecurityException.class)
                .hasMessageContaining("unknown message tag 0x3f");
        assertThatThrownBy(() -> codec.open(resigned(good, FrameCodec.MAC_BYTES, 9))).isInstanceOf(SecurityException.class)
                .hasMessageContaining("format version 9");
        // a key that declares more bytes than the frame holds: refused before anything is allocated
        assertThatThrownBy(() -> codec.open(resigned(good, tag + 1, 0x7F))).isInstanceOf(SecurityException.class)
                .hasMessageContaining("over its bound");
        byte[] truncated = java.util.Arrays.copyOf(good, good.length - 1);
        assertThatThrownBy(() -> codec.open(sign(truncated))).isInstanceOf(SecurityException.class)
                .hasMessageContaining("malformed frame");
        assertThat(codec.rejected()).isEqualTo(4);
    }

    /** {@code frame} with byte {@code at} set to {@code value}, signed again as a holder of the secret could. */
    private byte[] resigned(byte[] frame, int at, int value) {
        byte[] copy = frame.clone();
        copy[at] = (byte) value;
        return sign(copy);
    }

    private byte[] sign(byte[] frame) {
        byte[] mac = codec.mac(frame, FrameCodec.MAC_BYTES, frame.length - FrameCodec.MAC_BYTES);
        System.arraycopy(mac, 0, frame, 0, FrameCodec.MAC_BYTES);
        return frame;
    }

    @Test
    void aConfiguredPackageIsAllowed() {
        FrameCodec allowing = new FrameCodec(SECRET, List.of("java.io"));
        assertThat(allowing.deserialize(allowing.serialize(new File("x")))).isEqualTo(new File("x"));
    }

    @Test
    void serialisedLambdasOfAllowedClassesTravel() throws Exception {
        dev.spindle.cluster.TaskFunction<Integer> f = args -> (Integer) args.get(0) * 2;
        @SuppressWarnings("unchecked")
        dev.spindle.cluster.TaskFunction<Integer> back =
                (dev.spindle.cluster.TaskFunction<Integer>) codec.deserialize(codec.serialize(f));
        assertThat(back.apply(List.of(21))).isEqualTo(42);
    }

    @Test
    void settingsRejectBadInput() {
        assertThatThrownBy(() -> HazelcastClusterSettings.builder("c", "short")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HazelcastClusterSettings.builder(" ", "0123456789abcdef")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HazelcastClusterSettings.builder(null, "0123456789abcdef"))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("clusterName");
        HazelcastClusterSettings.Builder b = HazelcastClusterSettings.builder("c", "0123456789abcdef");
        assertThatThrownBy(() -> b.member("nohost")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.port(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.allowPackage("com..x")).isInstanceOf(IllegalArgumentException.class);
        assertThat(b.build().bindAddress()).isEqualTo("127.0.0.1");
        assertThat(b.build().members()).containsExactly("127.0.0.1:5701");
    }
}
