/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.JavaSerial;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.ValueCodec;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.WireWriter;
import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Defects of the Hazelcast transport's wire found by a security and robustness review (session
 * 40, the sibling of the Pekko transport's): each test failed on the code before its fix.
 */
class HazelcastWireReviewRegressionTest {

    private static final byte[] SECRET = "hazelcast-wire-review-secret-0123".getBytes(StandardCharsets.UTF_8);
    private static final UUID SESSION = UUID.randomUUID();

    /** Initialised once only, at a read: its static initialiser fails, as one whose dependency is missing does. */
    static final class FailsToInitialise implements Serializable {
        private static final long serialVersionUID = 1L;

        static {
            if (Boolean.parseBoolean("true")) {
                throw new IllegalStateException("static initialiser of a value class fails on this member");
            }
        }

        /** Gives this class a {@code $deserializeLambda$}; never called. */
        static Object lambda() {
            return (Supplier<Integer> & Serializable) () -> 1;
        }
    }

    /** The same shape under a name of the same length, so that its stream can be renamed to the one above. */
    static final class InitialisesWellXX implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * The nested value of a signed frame names a class (allowed by the allow-list) whose static
     * initialiser fails on the receiving member, or one whose dependency is missing there: a
     * {@link LinkageError} ({@link ExceptionInInitializerError}, then {@link NoClassDefFoundError}),
     * which no reader turned into a {@link SecurityException}. It escaped {@link FrameCodec#deserialize},
     * the coordinator's frame handler and the Hazelcast task, and the frame's other results (up to
     * a batch of them, all with their sequence number spent) were never delivered: their tasks
     * waited for good. On a worker the same took the rest of the coordinator's batch with it, its
     * later tasks and releases included (a lost release holds back every later task).
     */
    @Test
    void aValueWhoseClassCannotBeInitialisedFailsItsOwnTaskNotTheRestOfTheFrame() throws Exception {
        FrameCodec codec = new FrameCodec(SECRET, List.of());
        byte[] lambda = lambdaCapturedIn(FailsToInitialise.class.getName().replace('.', '/'));
        byte[] stream = renamed(JavaSerial.serialize(new InitialisesWellXX()),
                InitialisesWellXX.class.getName(), FailsToInitialise.class.getName());

        Offences offences = new Offences("coordinator");
        Roster roster = new Roster(offences);
        long incarnation = Incarnations.newIncarnation();
        assertThat(roster.prove(1, HandshakeRegressionTest.member(UUID.randomUUID(), false), incarnation)).isEqualTo(Incarnations.Proof.NEW);
        Session session = new Session(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, offences);
        session.join(SESSION);
        CoordinatorTransport transport = new CoordinatorTransport(codec, roster, session, 1 << 20);
        List<Message.ToScheduler> received = new CopyOnWriteArrayList<>();
        transport.attach(null, received::add);
        try {
            byte[] frame = codec.seal(new Wire.Frame(SESSION, 1, incarnation, Wire.COORDINATOR,
                    Wire.COORDINATOR_INCARNATION, 1, List.of(
                            new WireMessage.Finished(1, "lambda", 1, lambda, 8, 1),
                            new WireMessage.Finished(1, "stream", 1, stream, 8, 1),
                            new WireMessage.Finished(1, "fine", 1, ValueCodec.write(42, 1 << 20), 8, 1))));
            assertThatCode(() -> transport.onFrame(frame)).as("the frame handler, on a Hazelcast thread")
                    .doesNotThrowAnyException();
            assertThat(received).as("one report per result, the unreadable ones as their task's failure")
                    .hasSize(3);
            assertThat(received.get(0)).isInstanceOf(Message.TaskErred.class);
            assertThat(received.get(1)).isInstanceOf(Message.TaskErred.class);
            assertThat(received.get(2)).isInstanceOf(Message.TaskFinished.class)
                    .extracting(m -> ((Message.TaskFinished) m).value()).isEqualTo(42);
        } finally {
            transport.close();
        }
        // read alone, either form is refused as an unreadable payload, counted
        long before = codec.rejected();
        assertThatThrownBy(() -> codec.deserialize(lambda)).isInstanceOf(SecurityException.class);
        assertThatThrownBy(() -> codec.deserialize(stream)).isInstanceOf(SecurityException.class);
        assertThat(codec.rejected()).isEqualTo(before + 2);
    }

    /** The compact form of a scalar-capturing lambda, naming {@code capturing} as its capturing class. */
    private static byte[] lambdaCapturedIn(String capturing) throws Exception {
        Supplier<Integer> any = (Supplier<Integer> & Serializable) () -> 2;
        java.lang.reflect.Method writeReplace = any.getClass().getDeclaredMethod("writeReplace");
        writeReplace.setAccessible(true);
        SerializedLambda s = (SerializedLambda) writeReplace.invoke(any);
        return new WireWriter().u8(0x09).string(capturing).string(s.getFunctionalInterfaceClass())
                .string(s.getFunctionalInterfaceMethodName()).string(s.getFunctionalInterfaceMethodSignature())
                .u8(s.getImplMethodKind()).string(s.getImplClass()).string(s.getImplMethodName())
                .string(s.getImplMethodSignature()).string(s.getInstantiatedMethodType()).varLong(0).toByteArray();
    }

    /** {@code stream} with the class name {@code from} replaced by {@code to}, of the same length. */
    private static byte[] renamed(byte[] stream, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.UTF_8);
        byte[] t = to.getBytes(StandardCharsets.UTF_8);
        assertThat(t).hasSameSizeAs(f);
        byte[] out = stream.clone();
        for (int i = 0; i + f.length <= out.length; i++) {
            if (java.util.Arrays.equals(out, i, i + f.length, f, 0, f.length)) {
                System.arraycopy(t, 0, out, i, t.length);
                return out;
            }
        }
        throw new AssertionError("class name not in the stream");
    }
}
