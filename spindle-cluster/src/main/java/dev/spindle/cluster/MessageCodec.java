/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary form of the scheduler's and workers' messages between JVMs, shared by every
 * transport: a hand-written encoding instead of Java serialisation, so that a message costs a
 * few bytes per field rather than its class descriptors, and reading it runs no deserialiser.
 *
 * <h2>Format</h2>
 *
 * <p>A body is a tag byte then its fields in a fixed order ({@link WireWriter}'s primitives). The
 * tag names the message type <em>and</em> the version of its layout: a layout that changes gets
 * a new tag, and a reader refuses a tag it does not know rather than guess. Tags
 * {@value #FIRST_TRANSPORT_TAG}..{@value #LAST_TRANSPORT_TAG} are a transport's own bodies (its
 * membership handshakes), which it reads and writes through an {@link Extension}. A batch is a
 * count then that many bodies ({@link #writeBodies}); the transport puts its envelope (addressing,
 * session, sequence number, signature) around it. The user's objects inside a body (a task
 * function, a result or a fetched value) are opaque bytes here: the transport serialises them and
 * reads them through its allow-list, as before.
 *
 * <h2>Hostile input</h2>
 *
 * <p>{@link #readBody} and {@link #readBodies} take bytes that may come from an attacker (on a
 * transport with signatures, from a holder of the secret). Every length and count is checked by
 * {@link WireReader} against the bytes that remain before anything is allocated, and against the
 * bounds here ({@value #MAX_BATCH} bodies, {@value #MAX_NAME_BYTES}-byte keys and names,
 * {@value #MAX_TEXT_BYTES}-byte error messages, {@value #MAX_TRACE}-element stack traces), and a
 * size or duration a worker measured, or a count of releases it handled, must not be negative; an
 * unknown tag, a truncated body, one over a bound or one with a negative size, duration or count
 * throws a {@link SecurityException} naming the problem, and nothing of the frame is acted on.
 * What a frame costs decoded is bounded by its bytes too, and by the transport's frame limit: a
 * key list of empty or one-letter keys costs a list slot per key read (the shortest strings are
 * shared, {@link WireReader#string}), where it cost a String and two slots, 36 times the frame;
 * a holder map that names a key twice, which no writer writes, is refused; the costliest frame
 * left is a holder map of distinct short keys, a String, its array and a map entry each, about 20
 * times its bytes. (On the Pekko transport bodies are read before the seal is checked: which key
 * seals a frame depends on who sent it, which its bodies say.) Stateless and thread-safe.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class MessageCodec {

    /** The most bodies in one frame. */
    public static final int MAX_BATCH = 1024;
    /** The longest key, class name or method name, in encoded bytes. */
    public static final int MAX_NAME_BYTES = 64 * 1024;
    /** The longest error message kept, in encoded bytes; a longer one is cut when it is written. */
    public static final int MAX_TEXT_BYTES = 64 * 1024;
    /** The most stack trace elements kept; a longer trace is cut when it is written. */
    public static final int MAX_TRACE = 1024;
    /** The first tag a transport may use for its own bodies. */
    public static final int FIRST_TRANSPORT_TAG = 0x40;
    /** The last tag a transport may use for its own bodies. */
    public static final int LAST_TRANSPORT_TAG = 0x7F;

    // the tags of version 1 of each layout; a changed layout takes a new tag
    static final int COMPUTE = 0x01;
    static final int RELEASE_KEY = 0x02;
    static final int REPLICATE = 0x03;
    static final int RETIRED = 0x04;
    static final int STEAL_REQUEST = 0x05;
    /** {@link #REPLICATE} with the count of releases sent before it. */
    static final int REPLICATE_2 = 0x06;
    static final int FINISHED = 0x11;
    static final int RUNNING = 0x12;
    static final int ERRED = 0x13;
    static final int STEAL_RESPONSE = 0x14;
    static final int DATA_MISSING = 0x15;
    static final int DATA_ADDED = 0x16;
    static final int MEMORY_REPORT = 0x17;
    static final int REPLICA_FAILED = 0x18;
    static final int MEMORY_STALL = 0x19;
    /** {@link #DATA_ADDED} with the count of releases the worker had handled. */
    static final int DATA_ADDED_2 = 0x1A;
    static final int FETCH_REQUEST = 0x21;
    static final int FETCH_REPLY = 0x22;
    /** What a key is called in a refusal. */
    private static final String KEY = "key";
    /** What a measured size and a measured duration are called in a refusal. */
    private static final String SIZE = "size";
    private static final String DURATION = "duration";

    /** A transport's own bodies, with tags from {@value #FIRST_TRANSPORT_TAG} to {@value #LAST_TRANSPORT_TAG}. */
    public interface Extension {
        /**
         * Writes {@code body} with its tag if it is one of the transport's; returns whether it was.
         *
         * @param out the frame being written; left untouched if {@code body} is not the transport's
         * @param body a body that is none of the codec's own, not {@code null}
         * @return {@code true} if {@code body} was the transport's and has been written (tag
         *         first, the tag in {@value MessageCodec#FIRST_TRANSPORT_TAG}..{@value
         *         MessageCodec#LAST_TRANSPORT_TAG}), {@code false} if it is not the transport's
         */
        boolean write(WireWriter out, Object body);

        /**
         * Reads the fields of a body of the transport's {@code tag}.
         *
         * @param tag the body's tag, already read, in {@value MessageCodec#FIRST_TRANSPORT_TAG}..{@value
         *        MessageCodec#LAST_TRANSPORT_TAG}
         * @param in the frame, positioned after the tag
         * @return the body read, not {@code null}
         * @throws SecurityException if the tag is not one of the transport's, or the fields are
         *         malformed ({@link #unknownTag} and {@link WireReader#malformed} make both)
         */
        Object read(int tag, WireReader in);
    }

    /** No bodies of a transport's own. */
    public static final Extension NONE = new Extension() {
        @Override
        public boolean write(WireWriter out, Object body) {
            return false;
        }

        @Override
        public Object read(int tag, WireReader in) {
            throw unknownTag(tag);
        }
    };

    private MessageCodec() {
    }

    /**
     * The refusal of a tag no reader here knows. It is returned, not thrown, so that the caller
     * writes {@code throw MessageCodec.unknownTag(tag)}.
     *
     * @param tag the tag read, 0..255
     * @return a new exception whose message starts "malformed frame: unknown message tag" and
     *         names the tag in hexadecimal
     */
    public static SecurityException unknownTag(int tag) {
        return WireReader.malformed("unknown message tag 0x" + Integer.toHexString(tag)
                + " (another version of Spindle, or not a Spindle frame)");
    }

    /**
     * Writes a batch: its count, then each body.
     *
     * @param out the frame to append to; after an exception it holds a partial batch and is to
     *        be dropped
     * @param bodies the bodies, in order, each as {@link #writeBody} takes it; an empty list
     *        writes a batch that {@link #readBodies} refuses
     * @param own the transport's own bodies, or {@link #NONE}
     * @throws IllegalArgumentException if there are more than {@value #MAX_BATCH} bodies or one
     *         cannot be encoded (see {@link #writeBody})
     */
    public static void writeBodies(WireWriter out, List<?> bodies, Extension own) {
        if (bodies.size() > MAX_BATCH) {
            throw new IllegalArgumentException(bodies.size() + " messages in one frame, over " + MAX_BATCH);
        }
        out.varLong(bodies.size());
        for (Object body : bodies) {
            writeBody(out, body, own);
        }
    }

    /**
     * Reads a batch of at least one body. It does not check that the batch ends the input: a
     * caller with nothing after it calls {@link WireReader#expectEnd}.
     *
     * @param in the frame, positioned at the batch's count
     * @param own the transport's own bodies, or {@link #NONE}
     * @return the bodies, in the order written: 1 to {@value #MAX_BATCH} of them, none
     *         {@code null}; a new mutable list
     * @throws SecurityException if it is empty, malformed, or over a bound (see {@link #readBody})
     */
    public static List<Object> readBodies(WireReader in, Extension own) {
        int n = in.count(MAX_BATCH, 1, "message");
        if (n == 0) {
            throw WireReader.malformed("a frame without a message");
        }
        List<Object> bodies = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            bodies.add(readBody(in, own));
        }
        return bodies;
    }

    /**
     * Writes one body, tag first: a {@link Message} other than those with user objects or
     * exceptions ({@link Message.Compute}, {@link Message.TaskFinished}, {@link Message.TaskErred}:
     * send their {@link WireMessage} forms) and {@link Message.WorkerLost} (never sent), a
     * {@link WireMessage} record, or one of the transport's own.
     *
     * @param out the frame to append to; after an exception it may hold part of the body and is
     *        to be dropped
     * @param body the body, not {@code null}; its keys (and an {@link WireMessage.Erred}'s error
     *        class) must not be {@code null} either, nor a report's measured size or duration, or
     *        its count of releases handled, negative: they would be written, but {@link #readBody}
     *        refuses them
     * @param own the transport's own bodies, tried for a body that is none of the codec's, or
     *        {@link #NONE}
     * @throws IllegalArgumentException if the body is {@code null} or none of these, a key (or an
     *         error class) is over {@value #MAX_NAME_BYTES} encoded bytes, which {@link #readBody}
     *         would refuse with the whole frame (the sender fails what carries it instead), or the
     *         frame would grow past about 2 GiB
     * @throws NullPointerException if a field that the format does not let be {@code null} is
     *         (a list or map of a task, a holder id)
     */
    public static void writeBody(WireWriter out, Object body, Extension own) {
        if (body instanceof WireMessage.Compute c) {
            out.u8(COMPUTE).string(c.key(), MAX_NAME_BYTES, KEY).zigZag(c.attempt()).bytes(c.function());
            strings(out, c.dependencies());
            out.varLong(c.holders().size());
            for (Map.Entry<String, List<Integer>> e : c.holders().entrySet()) {
                out.string(e.getKey(), MAX_NAME_BYTES, KEY).varLong(e.getValue().size());
                for (int h : e.getValue()) {
                    out.zigZag(h);
                }
            }
            out.zigZag(c.priority()).zigZag(c.releases());
        } else if (body instanceof WireMessage.Finished f) {
            out.u8(FINISHED).zigZag(f.worker()).string(f.key(), MAX_NAME_BYTES, KEY).zigZag(f.attempt())
                    .bytes(f.value())
                    .zigZag(f.bytes()).zigZag(f.nanos());
        } else if (body instanceof WireMessage.Erred e) {
            out.u8(ERRED).zigZag(e.worker()).string(e.key(), MAX_NAME_BYTES, KEY).zigZag(e.attempt())
                    .string(e.errorClass(), MAX_NAME_BYTES, "error class")
                    .string(cut(e.message())).zigZag(e.nanos());
            trace(out, e.trace());
        } else if (body instanceof Message.DataAdded d) {
            out.u8(DATA_ADDED_2).zigZag(d.worker()).string(d.key(), MAX_NAME_BYTES, KEY).zigZag(d.bytes())
                    .zigZag(d.releases());
        } else if (body instanceof Message.ReplicaFailed r) {
            out.u8(REPLICA_FAILED).zigZag(r.worker()).string(r.key(), MAX_NAME_BYTES, KEY);
        } else if (body instanceof Message.ReleaseKey r) {
            out.u8(RELEASE_KEY).string(r.key(), MAX_NAME_BYTES, KEY).zigZag(r.index());
        } else if (body instanceof Message.StealRequest s) {
            out.u8(STEAL_REQUEST).zigZag(s.stealId()).string(s.key(), MAX_NAME_BYTES, KEY).zigZag(s.attempt());
        } else if (body instanceof Message.StealResponse s) {
            out.u8(STEAL_RESPONSE).zigZag(s.worker()).zigZag(s.stealId()).string(s.key(), MAX_NAME_BYTES, KEY)
                    .zigZag(s.attempt())
                    .bool(s.released());
        } else if (body instanceof Message.TaskRunning r) {
            out.u8(RUNNING).zigZag(r.worker()).string(r.key(), MAX_NAME_BYTES, KEY).zigZag(r.attempt()).zigZag(r.nanos());
        } else if (body instanceof Message.DataMissing m) {
            out.u8(DATA_MISSING).zigZag(m.worker()).string(m.key(), MAX_NAME_BYTES, KEY).zigZag(m.attempt())
                    .string(m.dependency(), MAX_NAME_BYTES, KEY)
                    .zigZag(m.holder());
        } else if (body instanceof Message.Replicate r) {
            out.u8(REPLICATE_2).string(r.key(), MAX_NAME_BYTES, KEY).varLong(r.holders().size());
            for (int h : r.holders()) {
                out.zigZag(h);
            }
            out.zigZag(r.releases());
        } else if (body instanceof Message.Retired r) {
            out.u8(RETIRED).zigZag(r.worker());
        } else if (body instanceof Message.MemoryReport m) {
            out.u8(MEMORY_REPORT).zigZag(m.worker()).zigZag(m.memoryBytes()).zigZag(m.spilledBytes()).bool(m.paused());
        } else if (body instanceof Message.MemoryStall m) {
            // without its awaited keys, which only a worker in the scheduler's JVM has (see Message.MemoryStall)
            out.u8(MEMORY_STALL).zigZag(m.worker()).bool(m.stalled()).zigZag(m.releases()).zigZag(m.memoryBytes())
                    .zigZag(m.limitBytes()).zigZag(m.report());
        } else if (body instanceof WireMessage.FetchRequest r) {
            out.u8(FETCH_REQUEST).string(r.key(), MAX_NAME_BYTES, KEY).zigZag(r.holder()).zigZag(r.requester());
        } else if (body instanceof WireMessage.FetchReply r) {
            out.u8(FETCH_REPLY).string(r.key(), MAX_NAME_BYTES, KEY).zigZag(r.holder()).bytes(r.value());
        } else if (body == null || !own.write(out, body)) {
            throw new IllegalArgumentException("no wire form for " + (body == null ? "null" : body.getClass().getName()));
        }
    }

    /**
     * Reads one body: a {@link Message} for one of the codec's tags (the forms with user objects
     * or exceptions as {@link WireMessage} records), or what {@code own} reads for a transport tag.
     *
     * @param in the frame, positioned at the body's tag
     * @param own the transport's own bodies, or {@link #NONE}
     * @return the body read, not {@code null}
     * @throws SecurityException if its tag is unknown, or it is malformed (a report's measured size
     *         or duration, or its count of releases handled, negative included) or over a bound; the
     *         message starts "malformed frame"
     */
    public static Object readBody(WireReader in, Extension own) {
        int tag = in.u8();
        switch (tag) {
            case COMPUTE: {
                String key = key(in);
                long attempt = in.zigZag();
                byte[] function = in.bytes(Integer.MAX_VALUE, "function");
                List<String> deps = readStrings(in, "dependency");
                int n = in.count(Integer.MAX_VALUE, 2, "holder entry");
                // sized for n entries, no more: the table is allocated at once, and a crafted count
                // of entries that each take two bytes made it four references per entry
                Map<String, List<Integer>> holders = new LinkedHashMap<>(n + n / 3 + 1);
                for (int i = 0; i < n; i++) {
                    String dependency = key(in);
                    if (holders.put(dependency, ints(in)) != null) {
                        // never written (the writer writes a map): a crafted frame's way to make the
                        // receiver allocate for entries it does not keep
                        throw WireReader.malformed("holder entry for one key twice");
                    }
                }
                int priority = in.zigZagInt();
                return new WireMessage.Compute(key, attempt, function, deps, holders, priority, in.zigZag());
            }
            case FINISHED:
                return new WireMessage.Finished(in.zigZagInt(), key(in), in.zigZag(), in.bytes(Integer.MAX_VALUE, "value"),
                        measured(in, SIZE), measured(in, DURATION));
            case ERRED: {
                int worker = in.zigZagInt();
                String key = key(in);
                long attempt = in.zigZag();
                String errorClass = in.nonNullString(MAX_NAME_BYTES, "error class");
                String message = in.string(MAX_TEXT_BYTES, "error message");
                long nanos = measured(in, DURATION);
                return new WireMessage.Erred(worker, key, attempt, errorClass, message, readTrace(in), nanos);
            }
            case DATA_ADDED:
                return new Message.DataAdded(in.zigZagInt(), key(in), measured(in, SIZE));   // releases unknown
            case DATA_ADDED_2:
                return new Message.DataAdded(in.zigZagInt(), key(in), measured(in, SIZE), handledReleases(in));
            case REPLICA_FAILED:
                return new Message.ReplicaFailed(in.zigZagInt(), key(in));
            case RELEASE_KEY:
                return new Message.ReleaseKey(key(in), in.zigZag());
            case STEAL_REQUEST:
                return new Message.StealRequest(in.zigZag(), key(in), in.zigZag());
            case STEAL_RESPONSE:
                return new Message.StealResponse(in.zigZagInt(), in.zigZag(), key(in), in.zigZag(), in.bool());
            case RUNNING:
                return new Message.TaskRunning(in.zigZagInt(), key(in), in.zigZag(), measured(in, DURATION));
            case DATA_MISSING:
                return new Message.DataMissing(in.zigZagInt(), key(in), in.zigZag(), key(in), in.zigZagInt());
            case REPLICATE:
                return new Message.Replicate(key(in), ints(in));
            case REPLICATE_2:
                return new Message.Replicate(key(in), ints(in), in.zigZag());
            case RETIRED:
                return new Message.Retired(in.zigZagInt());
            case MEMORY_REPORT:
                return new Message.MemoryReport(in.zigZagInt(), measured(in, SIZE), measured(in, SIZE), in.bool());
            case MEMORY_STALL:
                return new Message.MemoryStall(in.zigZagInt(), in.bool(), in.zigZag(), measured(in, SIZE),
                        measured(in, SIZE), in.zigZag());
            case FETCH_REQUEST:
                return new WireMessage.FetchRequest(key(in), in.zigZagInt(), in.zigZagInt());
            case FETCH_REPLY:
                return new WireMessage.FetchReply(key(in), in.zigZagInt(), in.bytes(Integer.MAX_VALUE, "value"));
            default:
                if (tag >= FIRST_TRANSPORT_TAG && tag <= LAST_TRANSPORT_TAG) {
                    return own.read(tag, in);
                }
                throw unknownTag(tag);
        }
    }

    /**
     * About how many bytes {@code body} takes encoded, for bounding a batch: its nested bytes and
     * strings at their length, every other field at its largest. Strings are counted in chars,
     * so a key mostly outside ASCII may take up to three times its estimate; a
     * {@link Message.Compute} (not yet in wire form) is counted with a few hundred bytes for its
     * function.
     *
     * @param body any body, {@code null} included (counted as a small message)
     * @return the estimate in bytes, at least 32; meant for comparison with a batch's byte bound,
     *         not as an exact size
     */
    public static long estimatedBytes(Object body) {
        long size = 32;
        if (body instanceof WireMessage.Compute c) {
            size += c.key().length() + length(c.function()) + 8L * c.holders().size();
            for (String d : c.dependencies()) {
                size += 2 + d.length();
            }
            for (Map.Entry<String, List<Integer>> e : c.holders().entrySet()) {
                size += e.getKey().length() + 5L * e.getValue().size();
            }
        } else if (body instanceof Message.Compute c) {
            // its function is serialised when the batch is sent: a lambda's form is a few hundred bytes
            size += 512 + c.key().length() + 8L * c.holders().size();
            for (String d : c.dependencies()) {
                size += 2 + d.length();
            }
        } else if (body instanceof WireMessage.Finished f) {
            size += f.key().length() + length(f.value());
        } else if (body instanceof WireMessage.FetchReply r) {
            size += r.key().length() + length(r.value());
        } else if (body instanceof WireMessage.Erred e) {
            size += 256 + (e.message() == null ? 0 : Math.min(MAX_TEXT_BYTES, 3L * e.message().length()))
                    + (e.trace() == null ? 0 : 128L * Math.min(MAX_TRACE, e.trace().length));
        } else if (body instanceof Message.Replicate r) {
            size += r.key().length() + 5L * r.holders().size();
        } else {
            size += 64;                       // a key or two
        }
        return size;
    }

    private static int length(byte[] bytes) {
        return bytes == null ? 0 : bytes.length;
    }

    /**
     * A size in bytes or a duration in nanoseconds that a worker measured, which is never
     * negative: the scheduler sums the sizes in saturated sums that assume 0 or more (for placement,
     * a worker's memory, the bytes moved) and averages the durations into its estimates, so a
     * negative one, which only a crafted frame carries, would make a worker that lacks a value look
     * as if it lacked less than nothing, or a kind of task look as if it took negative time.
     */
    private static long measured(WireReader in, String what) {
        long v = in.zigZag();
        if (v < 0) {
            throw WireReader.malformed("negative " + what + " " + v);
        }
        return v;
    }

    /**
     * How many releases a worker had handled ({@link Message.DataAdded#releases}): a count, never
     * negative but in a crafted frame, refused as a negative size is.
     */
    private static long handledReleases(WireReader in) {
        long v = in.zigZag();
        if (v < 0) {
            throw WireReader.malformed("negative release count " + v);
        }
        return v;
    }

    private static String key(WireReader in) {
        return in.nonNullString(MAX_NAME_BYTES, "key");
    }

    private static void strings(WireWriter out, List<String> strings) {
        out.varLong(strings.size());
        for (String s : strings) {
            out.string(s, MAX_NAME_BYTES, KEY);
        }
    }

    private static List<String> readStrings(WireReader in, String what) {
        int n = in.count(Integer.MAX_VALUE, 1, what);
        if (n == 0) {
            return List.of();
        }
        String[] out = new String[n];
        for (int i = 0; i < n; i++) {
            out[i] = in.nonNullString(MAX_NAME_BYTES, what);
        }
        return List.of(out);
    }

    /**
     * A list of worker ids. The short lists, nearly every one, are made without a list to copy
     * from: a list's own object and array took more than its ids, which take a byte each.
     */
    private static List<Integer> ints(WireReader in) {
        int n = in.count(Integer.MAX_VALUE, 1, "worker id");
        switch (n) {
            case 0:
                return List.of();
            case 1:
                return List.of(in.zigZagInt());
            case 2:
                return List.of(in.zigZagInt(), in.zigZagInt());
            default:
                Integer[] out = new Integer[n];
                for (int i = 0; i < n; i++) {
                    out[i] = in.zigZagInt();
                }
                return List.of(out);
        }
    }

    /**
     * {@code message}, cut to at most {@value #MAX_TEXT_BYTES} encoded bytes (a char takes at most
     * 3), the {@code "..."} that marks the cut included: the reader refuses a longer one, and the
     * whole frame with it.
     */
    private static String cut(String message) {
        int keep = (MAX_TEXT_BYTES - 3) / 3;
        return message == null || message.length() <= keep ? message : message.substring(0, keep) + "...";
    }

    private static void trace(WireWriter out, StackTraceElement[] trace) {
        if (trace == null) {
            out.varLong(0);
            return;
        }
        int n = Math.min(trace.length, MAX_TRACE);
        out.varLong(n + 1L);
        for (int i = 0; i < n; i++) {
            StackTraceElement e = trace[i];
            // bounded as read: a name over the bound (one set with setStackTrace) refuses the
            // body here, and the transports send the failure without its trace
            out.string(e.getClassLoaderName(), MAX_NAME_BYTES, "class loader")
                    .string(e.getModuleName(), MAX_NAME_BYTES, "module")
                    .string(e.getModuleVersion(), MAX_NAME_BYTES, "module version")
                    .string(e.getClassName(), MAX_NAME_BYTES, "class").string(e.getMethodName(), MAX_NAME_BYTES, "method")
                    .string(e.getFileName(), MAX_NAME_BYTES, "file").zigZag(e.getLineNumber());
        }
    }

    private static StackTraceElement[] readTrace(WireReader in) {
        long n = in.varLong() - 1;             // 0 for null, else the length plus one
        if (n < 0) {
            if (n == -1) {
                return null;
            }
            throw WireReader.malformed("stack trace length " + n);
        }
        // an element takes at least 7 bytes (six absent or empty strings and a line number)
        if (n > MAX_TRACE || n * 7 > in.remaining()) {
            throw WireReader.malformed("stack trace of " + n + " elements over its bound of "
                    + Math.min(MAX_TRACE, in.remaining() / 7));
        }
        StackTraceElement[] trace = new StackTraceElement[(int) n];
        for (int i = 0; i < n; i++) {
            trace[i] = new StackTraceElement(in.string(MAX_NAME_BYTES, "class loader"), in.string(MAX_NAME_BYTES, "module"),
                    in.string(MAX_NAME_BYTES, "module version"), in.nonNullString(MAX_NAME_BYTES, "class"),
                    in.nonNullString(MAX_NAME_BYTES, "method"), in.string(MAX_NAME_BYTES, "file"), in.zigZagInt());
        }
        return trace;
    }
}
