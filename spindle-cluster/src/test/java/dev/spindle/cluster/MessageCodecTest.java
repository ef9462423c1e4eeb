/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.assertj.core.api.recursive.comparison.RecursiveComparisonConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The shared binary codec: every message type round-trips (a property over arbitrary field
 * values, batches included), and hostile input (truncated, an unknown tag, lengths and counts
 * over their bounds) is refused with a message that names the problem, before anything beyond
 * the input's own size is allocated.
 */
class MessageCodecTest {

    private static final RecursiveComparisonConfiguration ARRAYS_BY_CONTENT = new RecursiveComparisonConfiguration();

    // ---- round trips -------------------------------------------------------------------------

    private static Arbitrary<String> keys() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40),
                Arbitraries.strings().withCharRange('\u0100', '\uffff').ofMaxLength(10), Arbitraries.just(""));
    }

    private static Arbitrary<Long> longs() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(-300, 300),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L));
    }

    /** Sizes and durations a worker measured, which are never negative (a negative one is refused). */
    private static Arbitrary<Long> measured() {
        return Arbitraries.oneOf(Arbitraries.longs().greaterOrEqual(0), Arbitraries.longs().between(0, 300),
                Arbitraries.of(Long.MAX_VALUE, 0L));
    }

    private static Arbitrary<Integer> ints() {
        return Arbitraries.oneOf(Arbitraries.integers(), Arbitraries.integers().between(-1, 70),
                Arbitraries.of(Integer.MIN_VALUE, Integer.MAX_VALUE));
    }

    private static Arbitrary<byte[]> bytesOrNull() {
        return Arbitraries.bytes().array(byte[].class).ofMaxSize(300).injectNull(0.1);
    }

    private static Arbitrary<StackTraceElement[]> traces() {
        Arbitrary<StackTraceElement> element = Combinators.combine(keys().injectNull(0.3), keys().injectNull(0.3),
                keys().injectNull(0.3), keys(), keys(), keys().injectNull(0.3), ints())
                .as(StackTraceElement::new);
        return element.array(StackTraceElement[].class).ofMaxSize(5).injectNull(0.2);
    }

    @Provide
    Arbitrary<Object> bodies() {
        Arbitrary<Object> compute = Combinators.combine(keys(), longs(), bytesOrNull(), keys().list().ofMaxSize(4),
                Arbitraries.maps(keys(), ints().list().ofMaxSize(3)).ofMaxSize(3), ints())
                .as(WireMessage.Compute::new);
        Arbitrary<Object> finished = Combinators.combine(ints(), keys(), longs(), bytesOrNull(), measured(), measured())
                .as(WireMessage.Finished::new);
        Arbitrary<Object> erred = Combinators.combine(ints(), keys(), longs(), keys(), keys().injectNull(0.3), traces(),
                measured()).as(WireMessage.Erred::new);
        return Arbitraries.oneOf(compute, finished, erred,
                Combinators.combine(keys(), ints(), ints()).as(WireMessage.FetchRequest::new),
                Combinators.combine(keys(), ints(), bytesOrNull()).as(WireMessage.FetchReply::new),
                keys().map(Message.ReleaseKey::new),
                Combinators.combine(keys(), ints().list().ofMaxSize(4)).as(Message.Replicate::new),
                ints().map(Message.Retired::new),
                Combinators.combine(longs(), keys(), longs()).as(Message.StealRequest::new),
                Combinators.combine(ints(), keys(), longs(), measured()).as(Message.TaskRunning::new),
                Combinators.combine(ints(), longs(), keys(), longs(), Arbitraries.of(true, false))
                        .as(Message.StealResponse::new),
                Combinators.combine(ints(), keys(), longs(), keys(), ints()).as(Message.DataMissing::new),
                Combinators.combine(ints(), keys(), measured()).as(Message.DataAdded::new),
                Combinators.combine(ints(), keys(), measured(), measured()).as(Message.DataAdded::new),
                Combinators.combine(ints(), keys()).as(Message.ReplicaFailed::new),
                Combinators.combine(ints(), measured(), measured(), Arbitraries.of(true, false)).as(Message.MemoryReport::new),
                Combinators.combine(ints(), Arbitraries.of(true, false), longs(), measured(), measured())
                        .as(Message.MemoryStall::new));
    }

    @Property(tries = 2000)
    void everyMessageTypeRoundTrips(@ForAll("bodies") Object body) {
        WireWriter out = new WireWriter(1);
        MessageCodec.writeBody(out, body, MessageCodec.NONE);
        WireReader in = new WireReader(out.toByteArray(), 0, out.size());
        Object read = MessageCodec.readBody(in, MessageCodec.NONE);
        in.expectEnd();
        assertThat(read).usingRecursiveComparison(ARRAYS_BY_CONTENT).isEqualTo(body);
    }

    @Property(tries = 300)
    void aBatchRoundTripsInOrder(@ForAll("batches") List<Object> bodies) {
        WireWriter out = new WireWriter();
        MessageCodec.writeBodies(out, bodies, MessageCodec.NONE);
        WireReader in = new WireReader(out.toByteArray(), 0, out.size());
        List<Object> read = MessageCodec.readBodies(in, MessageCodec.NONE);
        in.expectEnd();
        assertThat(read).usingRecursiveComparison(ARRAYS_BY_CONTENT).isEqualTo(bodies);
    }

    @Provide
    Arbitrary<List<Object>> batches() {
        return bodies().list().ofMinSize(1).ofMaxSize(20);
    }

    /** Every proper prefix of an encoded body is refused as malformed, never read as something else. */
    @Property(tries = 300)
    void everyTruncationIsRefused(@ForAll("bodies") Object body, @ForAll @IntRange(min = 0, max = 1000) int cut) {
        WireWriter out = new WireWriter();
        MessageCodec.writeBodies(out, List.of(body), MessageCodec.NONE);
        byte[] bytes = out.toByteArray();
        int length = cut % bytes.length;
        assertThatThrownBy(() -> {
            WireReader in = new WireReader(bytes, 0, length);
            MessageCodec.readBodies(in, MessageCodec.NONE);
            in.expectEnd();
        }).isInstanceOf(SecurityException.class).hasMessageStartingWith("malformed frame");
    }

    @Test
    void aTransportsOwnBodyTravelsThroughItsExtension() {
        record Ping(int n) {
        }
        MessageCodec.Extension own = new MessageCodec.Extension() {
            @Override
            public boolean write(WireWriter out, Object body) {
                if (body instanceof Ping p) {
                    out.u8(MessageCodec.FIRST_TRANSPORT_TAG).zigZag(p.n());
                    return true;
                }
                return false;
            }

            @Override
            public Object read(int tag, WireReader in) {
                return new Ping(in.zigZagInt());
            }
        };
        WireWriter out = new WireWriter();
        MessageCodec.writeBodies(out, List.of(new Ping(-7), new Message.Retired(2)), own);
        assertThat(MessageCodec.readBodies(new WireReader(out.toByteArray(), 0, out.size()), own))
                .containsExactly(new Ping(-7), new Message.Retired(2));
        // without the extension the tag is unknown, and so is the body without a wire form
        assertThatThrownBy(() -> MessageCodec.readBodies(new WireReader(out.toByteArray(), 0, out.size()),
                MessageCodec.NONE)).isInstanceOf(SecurityException.class).hasMessageContaining("unknown message tag 0x40");
        assertThatThrownBy(() -> MessageCodec.writeBody(new WireWriter(), new Ping(1), MessageCodec.NONE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no wire form");
    }

    @Test
    void messagesWithUserObjectsOrExceptionsHaveNoWireFormOfTheirOwn() {
        for (Object m : List.of(new Message.TaskFinished(1, "k", 1, 5, 1, 1),
                new Message.TaskErred(1, "k", 1, new RuntimeException(), 1), new Message.WorkerLost(1),
                new Message.Compute("k", 1, a -> 1, List.of(), Map.of(), 0))) {
            assertThatThrownBy(() -> MessageCodec.writeBody(new WireWriter(), m, MessageCodec.NONE))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no wire form");
        }
    }

    @Test
    void aFrameIsManyTimesSmallerThanItsJavaSerialisedForm() {
        WireMessage.Finished f = new WireMessage.Finished(2, "tiny-1234", 1, new byte[] {1, 2, 3, 4}, 16, 123_456);
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, f, MessageCodec.NONE);
        assertThat(out.size()).isLessThan(30);
    }

    // ---- hostile input -----------------------------------------------------------------------

    private static SecurityException refusal(byte... bytes) {
        try {
            WireReader in = new WireReader(bytes, 0, bytes.length);
            MessageCodec.readBodies(in, MessageCodec.NONE);
            in.expectEnd();
        } catch (SecurityException e) {
            return e;
        }
        throw new AssertionError("accepted " + Arrays.toString(bytes));
    }

    @Test
    void unknownTagsAreRefusedByName() {
        assertThat(refusal((byte) 1, (byte) 0x3F)).hasMessageContaining("unknown message tag 0x3f");
        assertThat(refusal((byte) 1, (byte) 0xFF)).hasMessageContaining("unknown message tag 0xff");
        assertThat(refusal((byte) 1, (byte) 0x00)).hasMessageContaining("unknown message tag 0x0");
    }

    @Test
    void anEmptyBatchOrTooManyMessagesAreRefused() {
        assertThat(refusal((byte) 0)).hasMessageContaining("without a message");
        WireWriter many = new WireWriter().varLong(MessageCodec.MAX_BATCH + 1L);
        for (int i = 0; i <= MessageCodec.MAX_BATCH; i++) {
            MessageCodec.writeBody(many, new Message.Retired(i), MessageCodec.NONE);
        }
        assertThat(refusal(many.toByteArray())).hasMessageContaining("message count 1025 over its bound");
        List<Object> tooMany = new ArrayList<>();
        for (int i = 0; i <= MessageCodec.MAX_BATCH; i++) {
            tooMany.add(new Message.Retired(i));
        }
        assertThatThrownBy(() -> MessageCodec.writeBodies(new WireWriter(), tooMany, MessageCodec.NONE))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void lengthsAndCountsOverWhatFollowsAreRefusedBeforeAllocation() {
        // a value that declares 2 GiB in a frame of a few bytes: refused on the length, nothing allocated
        WireWriter huge = new WireWriter().varLong(1).u8(MessageCodec.FETCH_REPLY).string("k").zigZag(1)
                .varLong(Integer.MAX_VALUE);
        assertThat(refusal(huge.toByteArray())).hasMessageContaining("value of 2147483646 bytes over its bound of 0");
        // a key with a length near 2^63
        WireWriter key = new WireWriter().varLong(1).u8(MessageCodec.RELEASE_KEY).varLong(Long.MAX_VALUE);
        assertThat(refusal(key.toByteArray())).hasMessageContaining("key of").hasMessageContaining("over its bound");
        // a length that wraps negative as a signed long
        WireWriter negative = new WireWriter().varLong(1).u8(MessageCodec.RELEASE_KEY).varLong(-5L);
        assertThat(refusal(negative.toByteArray())).hasMessageContaining("over its bound");
        // a dependency list that declares a billion entries
        WireWriter deps = new WireWriter().varLong(1).u8(MessageCodec.COMPUTE).string("k").zigZag(1).bytes(null)
                .varLong(1_000_000_000L);
        assertThat(refusal(deps.toByteArray())).hasMessageContaining("dependency count 1000000000 over its bound");
        // a stack trace of many elements in a few bytes
        WireWriter trace = new WireWriter().varLong(1).u8(MessageCodec.ERRED).zigZag(1).string("k").zigZag(1)
                .string("E").string(null).zigZag(1).varLong(MessageCodec.MAX_TRACE + 1L);
        assertThat(refusal(trace.toByteArray())).hasMessageContaining("stack trace");
    }

    @Test
    void overlongVarintsAndBadBooleansAreRefused() {
        byte[] overlong = new byte[13];
        overlong[0] = 1;
        overlong[1] = MessageCodec.RETIRED;
        Arrays.fill(overlong, 2, 13, (byte) 0x80);
        assertThat(refusal(overlong)).hasMessageContaining("varint longer than 10 bytes");
        WireWriter bool = new WireWriter().varLong(1).u8(MessageCodec.MEMORY_REPORT).zigZag(1).zigZag(1).zigZag(1).u8(2);
        assertThat(refusal(bool.toByteArray())).hasMessageContaining("boolean byte 2");
        WireWriter wide = new WireWriter().varLong(1).u8(MessageCodec.RETIRED).zigZag(1L << 40);
        assertThat(refusal(wide.toByteArray())).hasMessageContaining("out of range");
    }

    /**
     * A copy's report names how many releases its worker had handled (a layout with its own tag):
     * the count travels, a report in the earlier layout still reads, as one that does not say
     * (taken as current), and a negative count or one whose varint runs past 10 bytes is refused.
     */
    @Test
    void aCopysCountOfReleasesTravelsAndABadOneIsRefused() {
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, new Message.DataAdded(3, "k", 8, 5), MessageCodec.NONE);
        assertThat(out.toByteArray()[0]).isEqualTo((byte) MessageCodec.DATA_ADDED_2);
        assertThat(MessageCodec.readBody(new WireReader(out.toByteArray(), 0, out.size()), MessageCodec.NONE))
                .isEqualTo(new Message.DataAdded(3, "k", 8, 5));

        WireWriter earlier = new WireWriter().u8(MessageCodec.DATA_ADDED).zigZag(3).string("k").zigZag(8);
        assertThat(MessageCodec.readBody(new WireReader(earlier.toByteArray(), 0, earlier.size()), MessageCodec.NONE))
                .isEqualTo(new Message.DataAdded(3, "k", 8, Long.MAX_VALUE));

        WireWriter negative = new WireWriter().varLong(1).u8(MessageCodec.DATA_ADDED_2).zigZag(3).string("k").zigZag(8)
                .zigZag(-1);
        assertThat(refusal(negative.toByteArray())).hasMessageStartingWith("malformed frame")
                .hasMessageContaining("negative release count -1");
        WireWriter head = new WireWriter().varLong(1).u8(MessageCodec.DATA_ADDED_2).zigZag(3).string("k").zigZag(8);
        byte[] overlong = Arrays.copyOf(head.toByteArray(), head.size() + 11);
        Arrays.fill(overlong, head.size(), overlong.length, (byte) 0x80);
        assertThat(refusal(overlong)).hasMessageContaining("varint longer than 10 bytes");
        assertThat(refusal(head.toByteArray())).hasMessageStartingWith("malformed frame");   // the count missing
    }

    @Test
    void aLongErrorMessageAndTraceAreCutToTheirBoundsWhenWritten() {
        StackTraceElement[] trace = new StackTraceElement[MessageCodec.MAX_TRACE + 10];
        Arrays.fill(trace, new StackTraceElement("C", "m", "F.java", 1));
        WireMessage.Erred erred = new WireMessage.Erred(1, "k", 1, "E", "x".repeat(MessageCodec.MAX_TEXT_BYTES * 2), trace, 0);
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, erred, MessageCodec.NONE);
        WireMessage.Erred read = (WireMessage.Erred) MessageCodec.readBody(new WireReader(out.toByteArray(), 0, out.size()),
                MessageCodec.NONE);
        assertThat(read.trace()).hasSize(MessageCodec.MAX_TRACE);
        assertThat(read.message().length()).isLessThanOrEqualTo(MessageCodec.MAX_TEXT_BYTES);
    }
}
