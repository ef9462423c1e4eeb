/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.MessageCodec;
import dev.spindle.cluster.SerialAllowList;
import dev.spindle.cluster.ValueCodec;
import dev.spindle.cluster.WireReader;
import dev.spindle.cluster.WireWriter;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns {@link Wire.Frame}s into bytes and back, and nested user objects too.
 *
 * <p>A frame is {@code MAGIC (4 bytes) | body length (4 bytes) | body}, the body binary: an
 * authenticator of {@value FrameMac#BYTES} bytes (written by the sender's {@link Wire.Seal},
 * checked by the receiver, which knows whom the sender claims to be: see {@link KeyExchange}),
 * then the part it vouches for: the addressee, the sender's incarnation, the frame's number on its
 * link ({@link Wire.Frame#seq()}) and a batch of bodies in {@link MessageCodec}'s form, this
 * transport's {@link Wire.Probe}, {@link Wire.ProbeReply} and {@link Wire.Mark} as its own tags. The magic carries the format version. {@link #decode} never throws on hostile input: it returns a
 * {@link Wire.Rejected} naming the problem, so that the receiving actor can count and log the
 * offender (a serializer does not know who sent the bytes, the actor does). Bounds, each checked
 * before the work or memory it guards:
 * <ul>
 *   <li>a nested value or function is at most {@code maxBytes}; a frame body at most
 *       {@code maxBytes + }{@value #FRAME_SLACK} (the frame limit), and a batch is cut to fit it
 *       by its sender;
 *   <li>the input is at most the frame limit plus the header (Artery's {@code maximum-frame-size}
 *       bounds it already; this is the second check), and the declared body length must be
 *       non-negative, at most the frame limit and equal to what follows: a lying length is refused
 *       before anything is read;
 *   <li>the body is read by {@link WireReader}, which checks every length and count against the
 *       bytes that remain before it allocates, and refuses an unknown tag or bytes left over; no
 *       frame runs a deserialiser;
 *   <li>a nested value is read through {@link SerialAllowList}'s filter: only allowed classes,
 *       depth at most {@value #MAX_DEPTH} (which bounds the CPU a nested-collection hash bomb can
 *       take to about 2^{@value #MAX_DEPTH} steps), at most {@code maxBytes} in stream bytes, and
 *       every array's declared length at most {@code maxBytes}, and all its arrays together
 *       within what its bytes can hold ({@code JavaSerial}), each checked before it is allocated.
 * </ul>
 * Frames are encoded by the sender's own thread ({@link Outbox}), never inside Pekko, so a frame
 * over the limit fails where the sender can turn it into a task error instead of being dropped.
 * Thread-safe.
 */
final class WireCodec {

    // "SPK", format version 4 (version 1 was Java-serialised, version 2 had no authenticator,
    // version 3 no sequence number)
    static final int MAGIC = 0x53504B04;
    static final int HEADER_BYTES = 8;
    /** Where a frame's authenticator starts: right after the header. */
    static final int AUTH_OFFSET = HEADER_BYTES;
    /** Where the part of a frame that its authenticator vouches for starts: right after it. */
    static final int SIGNED_OFFSET = AUTH_OFFSET + FrameMac.BYTES;
    static final int MAX_DEPTH = 20;
    /** Room in a frame for keys, dependency lists and bookkeeping beside one nested value. */
    static final int FRAME_SLACK = 64 * 1024;
    static final int PROBE = MessageCodec.FIRST_TRANSPORT_TAG;
    /*
     * FIRST_TRANSPORT_TAG + 1 was a probe reply that gave the number of workers known, no longer
     * read: a number cannot show that the worker knows the workers the coordinator probes for.
     */
    static final int MARK = MessageCodec.FIRST_TRANSPORT_TAG + 2;
    /** A probe reply naming the workers known, id and incarnation each ({@link Wire.ProbeReply}). */
    static final int PROBE_REPLY = MessageCodec.FIRST_TRANSPORT_TAG + 3;

    /** This transport's own bodies. */
    private static final MessageCodec.Extension OWN = new MessageCodec.Extension() {
        @Override
        public boolean write(WireWriter out, Object body) {
            if (body instanceof Wire.Probe p) {
                out.u8(PROBE).zigZag(p.worker()).bytes(p.offer());
            } else if (body instanceof Wire.ProbeReply r) {
                out.u8(PROBE_REPLY).zigZag(r.worker()).varLong(r.peers().size());
                r.peers().forEach((id, incarnation) -> out.zigZag(id).zigZag(incarnation));
                out.bytes(r.token()).bytes(r.echo());
            } else if (body instanceof Wire.Mark m) {
                out.u8(MARK).zigZag(m.worker());
            } else {
                return false;
            }
            return true;
        }

        @Override
        public Object read(int tag, WireReader in) {
            if (tag == PROBE) {
                return new Wire.Probe(in.zigZagInt(), token(in, "offer"));
            }
            if (tag == PROBE_REPLY) {
                int worker = in.zigZagInt();
                // two bytes at least per peer (an id and an incarnation), and no more than there are ids
                int n = in.count(ClusterCoordinator.MAX_WORKERS, 2, "peer");
                Map<Integer, Long> peers = new HashMap<>();
                for (int i = 0; i < n; i++) {
                    if (peers.put(in.zigZagInt(), in.zigZag()) != null) {
                        throw WireReader.malformed("a peer named twice");
                    }
                }
                return new Wire.ProbeReply(worker, peers, token(in, "token"), token(in, "echo"));
            }
            if (tag == MARK) {
                return new Wire.Mark(in.zigZagInt());
            }
            throw MessageCodec.unknownTag(tag);
        }

        private byte[] token(WireReader in, String what) {
            byte[] token = in.bytes(FrameMac.BYTES, what);
            if (token == null || token.length != FrameMac.BYTES) {
                throw WireReader.malformed(what + " of " + (token == null ? "no" : token.length) + " bytes, not "
                        + FrameMac.BYTES);
            }
            return token;
        }
    };

    private final int maxBytes;
    private final int frameLimit;
    private final ObjectInputFilter filter;

    WireCodec(List<String> allowedPackages, int maxBytes) {
        this.maxBytes = maxBytes;
        this.frameLimit = maxBytes + FRAME_SLACK;
        this.filter = ObjectInputFilter.Config.createFilter(SerialAllowList.pattern(
                WireCodec.class.getPackageName(), allowedPackages, MAX_DEPTH, Math.max(10_000, frameLimit / 8),
                maxBytes, frameLimit));
    }

    /**
     * About the most bytes of messages a sender batches into one frame: half the value limit, so
     * that a batch stays under the frame limit however the estimate errs (one that does not is
     * sent a message at a time).
     */
    long batchBytes() {
        return Math.max(1, maxBytes / 2);
    }

    /** The largest frame body accepted or produced. */
    int frameLimit() {
        return frameLimit;
    }

    /**
     * Encodes a frame and seals it.
     *
     * @param seal writes the authenticator: the pair's key, a nonce, or {@link Wire.Seal#NONE}
     * @throws IllegalArgumentException if a body has no wire form or the frame exceeds the frame limit
     */
    byte[] encode(Wire.Frame frame, Wire.Seal seal) {
        WireWriter out = new WireWriter();
        out.zigZag(frame.to()).fixed64(frame.incarnation()).varLong(frame.seq());
        MessageCodec.writeBodies(out, frame.bodies(), OWN);
        int body = FrameMac.BYTES + out.size();
        if (body > frameLimit) {
            throw new IllegalArgumentException("is " + body + " bytes encoded, over the frame limit of " + frameLimit);
        }
        byte[] bytes = out.toByteArray(SIGNED_OFFSET);
        ByteBuffer.wrap(bytes).putInt(MAGIC).putInt(body);
        seal.seal(bytes, AUTH_OFFSET, SIGNED_OFFSET, bytes.length - SIGNED_OFFSET);
        return bytes;
    }

    /**
     * Decodes a frame (its authenticator is the receiver's to check, see {@link Wire.Received}),
     * or says why not; never throws on bad input.
     */
    Object decode(byte[] bytes) {
        Object decoded = read(bytes);
        return decoded instanceof Wire.Frame f ? new Wire.Received(f, bytes) : decoded;
    }

    private Object read(byte[] bytes) {
        if (bytes == null || bytes.length < HEADER_BYTES) {
            return new Wire.Rejected("frame shorter than its header");
        }
        if (bytes.length > HEADER_BYTES + (long) frameLimit) {
            return new Wire.Rejected("frame of " + bytes.length + " bytes exceeds the limit of " + frameLimit);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        int magic = in.getInt();
        if (magic != MAGIC) {
            return new Wire.Rejected((magic & 0xFFFFFF00) == (MAGIC & 0xFFFFFF00)
                    ? "frame format version " + (magic & 0xFF) + ", this member reads " + (MAGIC & 0xFF)
                    : "not a Spindle frame (bad magic)");
        }
        int declared = in.getInt();
        if (declared < FrameMac.BYTES || declared > frameLimit) {
            return new Wire.Rejected("declared length " + declared + " outside " + FrameMac.BYTES + ".." + frameLimit);
        }
        if (declared != bytes.length - HEADER_BYTES) {
            return new Wire.Rejected("declared length " + declared + " but " + (bytes.length - HEADER_BYTES)
                    + " bytes follow");
        }
        try {
            WireReader body = new WireReader(bytes, SIGNED_OFFSET, declared - FrameMac.BYTES);
            Wire.Frame f = new Wire.Frame(body.zigZagInt(), body.fixed64(), body.varLong(),
                    MessageCodec.readBodies(body, OWN));
            body.expectEnd();
            return f;
        } catch (SecurityException e) {
            return new Wire.Rejected(e.getMessage());
        }
    }

    /**
     * The bytes of a value (or a task function): compact for the common types, else
     * Java-serialised ({@link ValueCodec}).
     *
     * @throws IllegalArgumentException if it is not serialisable or exceeds the limit
     */
    byte[] serialize(Object value) {
        return ValueCodec.write(value, maxBytes);
    }

    /**
     * Reads a nested value, a Java-serialised one through the allow-list.
     *
     * @throws SecurityException if it is refused or unreadable
     */
    Object deserialize(byte[] bytes) {
        if (bytes != null && bytes.length > maxBytes) {   // null: refused by ValueCodec as missing
            throw new SecurityException("value of " + bytes.length + " bytes exceeds the limit of " + maxBytes);
        }
        try {
            return ValueCodec.read(bytes, filter);          // unreadable: SecurityException already
        } catch (InvalidClassException e) {
            if (e.classname != null) {
                // not the filter's (its refusals name no class): a class it allowed that this member
                // reads differently (another serialVersionUID: a member of another build); called
                // refused by the allow-list, it sent the operator to widen the list, which changes nothing
                throw new SecurityException("class " + e.classname + " cannot be read here, another version of it"
                        + " wrote the value (" + e.getMessage() + ")");
            }
            throw new SecurityException("refused by the allow-list or its limits (" + e.getMessage() + ")");
        }
    }
}
