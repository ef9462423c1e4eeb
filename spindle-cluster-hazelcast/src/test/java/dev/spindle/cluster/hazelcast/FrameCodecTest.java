/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.Message;
import dev.spindle.cluster.RemoteTaskException;
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
    void aTaskFailureTravelsAsTheSharedRemoteTaskException() {
        Message.TaskErred erred = new Message.TaskErred(1, "k", 2, new RemoteTaskException("java.io.IOException",
                "disk on fire", new Throwable().getStackTrace()), 5);
        Wire.Frame frame = new Wire.Frame(SESSION, 1, 5L, Wire.COORDINATOR, 1, erred);
        Message.TaskErred read = (Message.TaskErred) ((Wire.Frame) codec.open(codec.seal(frame))).body();
        assertThat(read.error()).isInstanceOf(RemoteTaskException.class).hasMessage("java.io.IOException: disk on fire");
        assertThat(((RemoteTaskException) read.error()).remoteClass()).isEqualTo("java.io.IOException");
        assertThat(FrameCodec.allowList(List.of())).startsWith(RemoteTaskException.class.getName() + ";")
                .doesNotContain("dev.spindle.cluster.*;").endsWith("!*");
    }

    @Test
    void aClassOutsideTheAllowListIsRefusedEvenWhenSigned() {
        byte[] frame = codec.seal(new Wire.Frame(SESSION, 0, 5L, 1, 1, new File("/etc/passwd")));
        assertThatThrownBy(() -> codec.open(frame)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("allow-list");
        assertThatThrownBy(() -> codec.deserialize(codec.serialize(new File("x"))))
                .isInstanceOf(SecurityException.class);
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
