/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.hazelcast.cluster.Address;
import dev.spindle.cluster.testkit.LogLines;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a member refuses it logs by the offender's own text: a joiner's address (its host name is
 * whatever the joiner announces), a class name read from a frame. A line break in that text wrote
 * a line of the peer's own choosing into the member's log, one that reads as the member's (here,
 * a worker let in), and a terminal escape went to the operator's terminal as it was.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForgedLogLineTest {

    private static final String FORGED = "WARNING: worker 9 admitted, proof ok";

    private LogLines log;
    private List<String> lines;

    @BeforeEach
    void listen() {
        log = LogLines.of(Offences.class);
        lines = log.lines();
    }

    @AfterEach
    void stopListening() {
        log.close();
    }

    /**
     * A joiner refused (here as not a Spindle worker, before any proof) is logged with its
     * address, as {@code Admission} words it; the host name in it is the joiner's.
     */
    @Test
    void aJoinersAddressCannotStartALogLine() throws Exception {
        Address forged = new Address("joiner\n" + FORGED + "\u001b[2K" + "x".repeat(5_000),
                InetAddress.getLoopbackAddress(), 5701);
        Offences offences = new Offences("coordinator");

        offences.record(Offences.Kind.REFUSED_MEMBER, UUID.randomUUID(),
                "not a Spindle worker (member at " + forged + ")");

        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).as("the refusal's log line").doesNotContain("\n").doesNotContain("\r")
                .doesNotContain("\u001b").contains("joiner\\n" + FORGED + "\\u001b[2K").hasSizeLessThan(2_000);
    }

    /**
     * A class name in a signed value (a member holding the secret, or one taken over) is read
     * from the value's bytes; one that names no class here is refused, and its name logged.
     */
    @Test
    void aClassNameReadFromAFrameCannotStartALogLine() {
        FrameCodec codec = new FrameCodec("0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8),
                List.of(), new Offences("coordinator"));
        byte[] value = codec.serialize(new AtomicLong(7));
        String real = AtomicLong.class.getName();
        String name = ("x\n" + FORGED + "                                        ").substring(0, real.length());
        byte[] forged = replace(value, real.getBytes(StandardCharsets.UTF_8), name.getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> codec.deserialize(forged)).isInstanceOf(SecurityException.class);

        assertThat(lines).hasSize(1);
        assertThat(lines.get(0)).as("the refusal's log line").doesNotContain("\n").contains("x\\nWARNING: worker 9");
    }

    /** {@code bytes} with the one occurrence of {@code from} replaced by {@code to}, of the same length. */
    private static byte[] replace(byte[] bytes, byte[] from, byte[] to) {
        assertThat(to).hasSameSizeAs(from);
        for (int i = 0; i + from.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + from.length, from, 0, from.length)) {
                byte[] out = bytes.clone();
                System.arraycopy(to, 0, out, i, to.length);
                return out;
            }
        }
        throw new AssertionError("no " + new String(from, StandardCharsets.UTF_8) + " in the value");
    }
}
