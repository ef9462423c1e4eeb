/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.ValueCodec;
import dev.spindle.cluster.MessageCodec;
import dev.spindle.cluster.RemoteTaskException;
import dev.spindle.cluster.WireReader;
import dev.spindle.cluster.WireWriter;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns frames into signed bytes and back. A frame is {@code HMAC-SHA256(secret, payload) ||
 * payload}; the payload is binary: a format version byte ({@value #FORMAT}), the envelope
 * (session id, sender, incarnation, addressee, addressee's incarnation, sequence number) and a batch of bodies in
 * {@link MessageCodec}'s form, this transport's {@link Wire.Members} and {@link Wire.CutOff} as
 * its own tags {@value #MEMBERS} and {@value #CUT_OFF}. {@link #open} checks the signature before it reads a single byte of the
 * payload, then reads it with {@link WireReader}'s bounds (every length and count checked
 * against the bytes that remain before anything is allocated; an unknown version or tag, or
 * bytes left over, refused), so an unsigned frame is never parsed and no frame runs a
 * deserialiser. The user's objects nested in a body (functions, results, fetched values) are
 * Java-serialised bytes that {@link #deserialize} reads through an {@link ObjectInputFilter}
 * allow-list (see {@link #allowList}). Thread-safe.
 */
final class FrameCodec {

    static final int MAC_BYTES = FrameMac.BYTES;
    /** The payload's format version, its first byte (2: the envelope names the addressee's incarnation). */
    static final int FORMAT = 2;
    /**
     * The deepest object graph a nested value may have: as WorkerMain's JVM-wide filter and the
     * Pekko transport's codec allow, so that a nested-set hash bomb signed by a holder of the
     * secret stops after about 2^20 steps instead of keeping a thread busy for ever.
     */
    static final int MAX_DEPTH = 20;
    /** {@link Wire.Members}' tag, in the transport's range of {@link MessageCodec}. */
    static final int MEMBERS = MessageCodec.FIRST_TRANSPORT_TAG;
    /** {@link Wire.CutOff}'s tag. */
    static final int CUT_OFF = MessageCodec.FIRST_TRANSPORT_TAG + 1;
    /** This transport's own bodies. */
    private static final MessageCodec.Extension OWN = new MessageCodec.Extension() {
        @Override
        public boolean write(WireWriter out, Object body) {
            if (body instanceof Wire.CutOff c) {
                out.u8(CUT_OFF).zigZag(c.worker());
                return true;
            }
            if (!(body instanceof Wire.Members m)) {
                return false;
            }
            out.u8(MEMBERS).varLong(m.workers().size());
            m.workers().forEach((id, uuid) -> {
                Long incarnation = m.incarnations().get(id);
                out.zigZag(id).fixed64(uuid.getMostSignificantBits()).fixed64(uuid.getLeastSignificantBits())
                        .bool(incarnation != null).fixed64(incarnation == null ? 0 : incarnation);
            });
            return true;
        }

        @Override
        public Object read(int tag, WireReader in) {
            if (tag == CUT_OFF) {
                return new Wire.CutOff(in.zigZagInt());
            }
            if (tag != MEMBERS) {
                throw MessageCodec.unknownTag(tag);
            }
            int n = in.count(Integer.MAX_VALUE, 26, "member");
            Map<Integer, UUID> workers = new TreeMap<>();
            Map<Integer, Long> incarnations = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                int id = in.zigZagInt();
                workers.put(id, new UUID(in.fixed64(), in.fixed64()));
                boolean known = in.bool();
                long incarnation = in.fixed64();
                if (known) {
                    incarnations.put(id, incarnation);
                }
            }
            return new Wire.Members(workers, incarnations);
        }
    };
    private final FrameMac mac;
    private final ObjectInputFilter filter;
    private final AtomicLong rejected = new AtomicLong();
    private final Offences offences;
    /** The class the filter refused last on this thread, for a message that names it. */
    private static final ThreadLocal<String> lastRefused = new ThreadLocal<>();

    FrameCodec(byte[] secret, List<String> allowedPackages) {
        this(secret, allowedPackages, new Offences("codec"));
    }

    /** A codec that reports what it refuses to {@code offences} (once per kind and offender). */
    FrameCodec(byte[] secret, List<String> allowedPackages, Offences offences) {
        this.offences = offences;
        this.mac = new FrameMac(secret);
        ObjectInputFilter patterns = ObjectInputFilter.Config.createFilter(allowList(allowedPackages));
        this.filter = info -> {
            ObjectInputFilter.Status status = patterns.checkInput(info);
            if (status == ObjectInputFilter.Status.REJECTED && info.serialClass() != null) {
                lastRefused.set(info.serialClass().getName());
            }
            return status;
        };
    }

    /**
     * The filter pattern: Spindle's wire and message classes, the scatter lambdas of
     * {@code Client} (the class and its lambdas), java.lang/java.util/java.math basics and serialised lambdas, the user's
     * packages, and {@link RemoteTaskException} (a worker reports a task's failure in it, as text);
     * everything else is refused. Depth and size limits bound hostile graphs from a holder of the
     * secret.
     */
    static String allowList(List<String> allowedPackages) {
        // the first pattern that matches a class decides, so naming one class ahead is exact
        return RemoteTaskException.class.getName() + ";" + dev.spindle.cluster.SerialAllowList.pattern(
                "dev.spindle.cluster.hazelcast", allowedPackages, MAX_DEPTH, 1_000_000, 100_000_000, 0);
    }

    /**
     * Encodes and signs.
     *
     * @throws IllegalArgumentException if a body has no wire form or there are too many
     */
    byte[] seal(Wire.Frame frame) {
        WireWriter out = new WireWriter();
        UUID session = frame.session();
        out.u8(FORMAT).fixed64(session.getMostSignificantBits()).fixed64(session.getLeastSignificantBits())
                .zigZag(frame.sender()).fixed64(frame.incarnation()).zigZag(frame.to()).fixed64(frame.toIncarnation())
                .zigZag(frame.seq());
        MessageCodec.writeBodies(out, frame.bodies(), OWN);
        byte[] sealed = out.toByteArray(MAC_BYTES);
        System.arraycopy(mac(sealed, MAC_BYTES, sealed.length - MAC_BYTES), 0, sealed, 0, MAC_BYTES);
        return sealed;
    }

    /**
     * The refusal of a signed frame whose envelope reads but whose bodies do not (a tag, length or
     * figure the codec refuses, bytes left over): its {@link #envelope}, with no bodies, names the
     * process that signed it, so that the receiver can tell that sender's loss of what it sent.
     */
    static final class UnreadableBodies extends SecurityException {
        private static final long serialVersionUID = 1L;
        private final transient Wire.Frame envelope;

        UnreadableBodies(String why, Wire.Frame envelope) {
            super(why);
            this.envelope = envelope;
        }

        /** The frame's envelope as it reads, with an empty list of bodies. */
        Wire.Frame envelope() {
            return envelope;
        }
    }

    /**
     * Checks the signature, then decodes.
     *
     * @throws UnreadableBodies if the frame is signed and its envelope reads, but its bodies are
     *         malformed (an unknown tag, truncated, a length or figure over its bound, bytes left
     *         over); counted in {@link #rejected()}
     * @throws SecurityException if the frame is unsigned, wrongly signed or its envelope malformed
     *         (an unknown version, truncated); the frame is counted in {@link #rejected()}
     */
    Wire.Frame open(byte[] frame) {
        if (frame == null || frame.length <= MAC_BYTES) {
            throw reject(Offences.Kind.BAD_SIGNATURE, "unsigned frames", "frame too short to be signed");
        }
        if (!mac.verifies(frame, 0, frame, MAC_BYTES, frame.length - MAC_BYTES)) {
            throw reject(Offences.Kind.BAD_SIGNATURE, "unsigned or forged frames", "bad signature");
        }
        try {
            WireReader in = new WireReader(frame, MAC_BYTES, frame.length - MAC_BYTES);
            int version = in.u8();
            if (version != FORMAT) {
                throw WireReader.malformed("format version " + version + ", this member reads " + FORMAT);
            }
            Wire.Frame envelope = new Wire.Frame(new UUID(in.fixed64(), in.fixed64()), in.zigZagInt(), in.fixed64(),
                    in.zigZagInt(), in.fixed64(), in.zigZag(), List.of());
            try {
                List<Object> bodies = MessageCodec.readBodies(in, OWN);
                in.expectEnd();
                return new Wire.Frame(envelope.session(), envelope.sender(), envelope.incarnation(), envelope.to(),
                        envelope.toIncarnation(), envelope.seq(), bodies);
            } catch (SecurityException unreadable) {
                throw new UnreadableBodies(reject(Offences.Kind.REFUSED_CLASS, "unreadable payloads",
                        unreadable.getMessage()).getMessage(), envelope);
            }
        } catch (UnreadableBodies e) {
            throw e;
        } catch (SecurityException malformed) {
            throw reject(Offences.Kind.REFUSED_CLASS, "unreadable payloads", malformed.getMessage());
        }
    }

    /**
     * The bytes of a value nested in a frame that will be signed: compact for the common types,
     * else Java-serialised ({@link ValueCodec}).
     *
     * @throws IllegalArgumentException if it is not serialisable
     */
    byte[] serialize(Object value) {
        return ValueCodec.write(value, Integer.MAX_VALUE);
    }

    /**
     * The bytes of a value that is to travel in a frame of at most {@code limit} bytes, as
     * {@link #serialize(Object)}; a value over the limit is refused as soon as its bytes pass it,
     * not once they are all in memory (a result of gigabytes took that much of the heap, twice
     * over as the buffer doubled, before its frame was refused for its size).
     *
     * @throws IllegalArgumentException if it is not serialisable or over {@code limit} bytes
     */
    byte[] serialize(Object value, int limit) {
        return ValueCodec.write(value, limit);
    }

    /** Reads a nested value (its frame was already verified), a Java-serialised one through the allow-list. */
    Object deserialize(byte[] bytes) {
        try {
            return ValueCodec.read(bytes, filter);
        } catch (InvalidClassException e) {
            String refused = lastRefused.get();
            lastRefused.remove();
            if (refused == null && e.classname != null) {
                // not the filter's (its refusals name no class, or set lastRefused): a class it
                // allowed that this member reads differently (another serialVersionUID, no valid
                // constructor), a member of another build; called refused by the allow-list, it sent
                // the operator to widen the allow-list, which changes nothing
                throw reject(Offences.Kind.REFUSED_CLASS, e.classname, "class " + e.classname
                        + " cannot be read here, another version of it wrote the value (" + e.getMessage() + ")");
            }
            throw reject(Offences.Kind.REFUSED_CLASS, refused == null ? "a class" : refused, "class "
                    + (refused == null ? "" : refused + " ") + "refused by the allow-list (" + e.getMessage() + ")");
        } catch (SecurityException unreadable) {
            throw reject(Offences.Kind.REFUSED_CLASS, "unreadable payloads", unreadable.getMessage());
        }
    }

    /** Frames and values refused so far. */
    long rejected() {
        return rejected.get();
    }

    /** HMAC-SHA256 of {@code data} under the secret, for the handshake. */
    byte[] mac(byte[] data) {
        return mac(data, 0, data.length);
    }

    /** HMAC-SHA256 of part of {@code data} under the secret. */
    byte[] mac(byte[] data, int offset, int length) {
        return mac.mac(data, offset, length);
    }

    private SecurityException reject(Offences.Kind kind, Object offender, String why) {
        rejected.incrementAndGet();
        offences.record(kind, offender, why);
        return new SecurityException(why);
    }
}
