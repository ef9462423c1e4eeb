/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;

/**
 * Measures values as the wire would see them.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>A value that is not {@link Sized} measures as the length of its Java serialisation on a
 * stream of its own: the stream's header and the value, every class descriptor written in full.
 * Every task result of the cluster is measured, so building that stream each time (buffers, handle
 * and replacement tables, a few kilobytes) was a large part of a graph of small tasks' allocation.
 * Two cheaper ways give the same numbers:
 *
 * <ul>
 *   <li>a string, a boxed primitive and an array of {@code byte}, {@code int}, {@code long} or
 *       {@code double} have a serialisation whose length is known without writing it: a constant
 *       per class (boxed values), that plus the elements' width times the length (arrays), or the
 *       string's modified UTF-8 length plus a short or long string's header ({@link #known});
 *   <li>any other value is written on the calling thread's own stream ({@link Measurer}), which
 *       is {@link ObjectOutputStream#reset() reset} after each value: a reset forgets every handle
 *       and replacement, so the next value's class descriptors and objects are written in full, as
 *       on a fresh stream, and its length does not depend on what was measured before. The reset
 *       marker itself, and the header written once, are not counted; the header's length is added.
 * </ul>
 *
 * <p>A thread's stream is dropped instead of kept when a write threw (the stream may be left
 * mid-object) and after a value of more than {@link #KEEP_LIMIT} bytes (a reset empties the handle
 * table but keeps its grown arrays); a value whose own {@code writeObject} measures another value
 * on the same thread gets a fresh stream for that one, as the thread's is in use.
 */
final class Sizes {

    /** After a value longer than this, the thread's stream is dropped rather than kept with the tables it grew. */
    static final long KEEP_LIMIT = 64 * 1024;

    /** The stream header a fresh stream writes first: magic number and version, two shorts. */
    private static final long HEADER = 4;

    /** TC_STRING or TC_LONGSTRING, then the length as an unsigned short or a long. */
    private static final long SHORT_STRING = HEADER + 1 + 2;
    private static final long LONG_STRING = HEADER + 1 + 8;

    /** Serialised lengths measured once on fresh streams: boxed values per class, arrays without elements. */
    private static final long BOOLEAN = fixed(Boolean.FALSE);
    private static final long BYTE = fixed((byte) 0);
    private static final long SHORT = fixed((short) 0);
    private static final long CHARACTER = fixed('0');
    private static final long INTEGER = fixed(0);
    private static final long LONG = fixed(0L);
    private static final long FLOAT = fixed(0f);
    private static final long DOUBLE = fixed(0d);
    private static final long BYTES = fixed(new byte[0]);
    private static final long INTS = fixed(new int[0]);
    private static final long LONGS = fixed(new long[0]);
    private static final long DOUBLES = fixed(new double[0]);

    /** The calling thread's stream, or none (see the overview). */
    private static final ThreadLocal<Measurer> MEASURERS = new ThreadLocal<>();

    private Sizes() {
    }

    /**
     * The size of {@code value}: {@link Sized#sizeInBytes()} if it says, else the length of its
     * Java serialisation; 0 for null.
     *
     * @throws NotSerializableException if the value is neither {@link Sized} nor serialisable
     */
    static long measure(Object value) throws NotSerializableException {
        if (value == null) {
            return 0;
        }
        if (value instanceof Sized s) {
            long n = s.sizeInBytes();
            if (n < 0) {
                throw new IllegalArgumentException("negative size " + n + " reported by " + value.getClass().getName());
            }
            return n;
        }
        if (!(value instanceof Serializable)) {
            throw new NotSerializableException(value.getClass().getName()
                    + " is neither Serializable nor Sized, so it cannot be a cluster value");
        }
        long n = known(value);
        return n >= 0 ? n : serialised(value);
    }

    /**
     * The serialised length of a string, a boxed primitive or an array of bytes, ints, longs or
     * doubles, worked out without writing it; -1 for any other value. Exact classes only: each of
     * these is final (or an array type), so no subclass writes more.
     */
    private static long known(Object value) {
        Class<?> c = value.getClass();
        if (c == String.class) {
            long utf = utfLength((String) value);
            // ObjectOutputStream writes a string whose modified UTF-8 is longer than an unsigned short as a long string
            return (utf <= 0xFFFF ? SHORT_STRING : LONG_STRING) + utf;
        } else if (c == Integer.class) {
            return INTEGER;
        } else if (c == Long.class) {
            return LONG;
        } else if (c == Double.class) {
            return DOUBLE;
        } else if (c == byte[].class) {
            return BYTES + ((byte[]) value).length;
        } else if (c == Boolean.class) {
            return BOOLEAN;
        } else if (c == int[].class) {
            return INTS + 4L * ((int[]) value).length;
        } else if (c == long[].class) {
            return LONGS + 8L * ((long[]) value).length;
        } else if (c == double[].class) {
            return DOUBLES + 8L * ((double[]) value).length;
        } else if (c == Float.class) {
            return FLOAT;
        } else if (c == Short.class) {
            return SHORT;
        } else if (c == Byte.class) {
            return BYTE;
        } else if (c == Character.class) {
            return CHARACTER;
        }
        return -1;
    }

    /** The length of {@code s} in modified UTF-8, as DataOutput.writeUTF writes it: NUL and U+0080..U+07FF take 2 bytes. */
    private static long utfLength(String s) {
        long n = s.length();
        for (int i = 0, len = s.length(); i < len; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || c == 0) {
                n += c >= 0x800 ? 2 : 1;
            }
        }
        return n;
    }

    /** The serialised length of {@code value}, written on the calling thread's stream (see the overview). */
    private static long serialised(Object value) throws NotSerializableException {
        Measurer m = MEASURERS.get();
        if (m != null && m.busy) {
            return once(value);               // measured from the writeObject of a value this thread is measuring
        }
        if (m == null) {
            m = new Measurer();
            MEASURERS.set(m);
        }
        m.busy = true;
        boolean keep = false;
        try {
            long n = m.measure(value);
            keep = n <= KEEP_LIMIT;
            return n;
        } catch (NotSerializableException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("cannot measure a value of " + value.getClass().getName(), e);
        } finally {
            m.busy = false;
            if (!keep) {
                MEASURERS.remove();           // thrown mid-object, or tables grown by a large value
            }
        }
    }

    /** {@link #once} of a value of the JDK known to serialise. */
    private static long fixed(Object value) {
        try {
            return once(value);
        } catch (NotSerializableException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The serialised length of {@code value} on a fresh stream of its own: the definition the others match. */
    private static long once(Object value) throws NotSerializableException {
        Counter counter = new Counter();
        try (ObjectOutputStream out = new ObjectOutputStream(counter)) {
            out.writeObject(value);
        } catch (NotSerializableException e) {
            throw e;
        } catch (IOException e) {
            throw new IllegalStateException("cannot measure a value of " + value.getClass().getName(), e);
        }
        return counter.count;
    }

    /**
     * The sum of two sizes (each 0 or more), saturated at {@link Long#MAX_VALUE}: {@link Sized}
     * values may say they are near it, and a sum that wrapped to a negative value read as "nothing
     * to move" to placement. Also the in-process transport's delay, a latency plus the transfer
     * time of such a size, in nanoseconds: wrapped, it read as no delay at all.
     */
    static long plus(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** One thread's stream, which counts what it is given and keeps none of it. */
    private static final class Measurer {
        private final Counter counter = new Counter();
        private final ObjectOutputStream out;
        /** Whether a value is being written on it: a second, from that value's writeObject, needs another stream. */
        boolean busy;

        Measurer() {
            try {
                out = new ObjectOutputStream(counter);   // its header is written here, and counted as HEADER
            } catch (IOException e) {
                throw new IllegalStateException("a stream to a counter failed", e);   // the counter throws nothing
            }
        }

        /**
         * The serialised length of {@code value} as a fresh stream would write it. Everything the
         * value writes reaches the counter as writeObject returns: it writes outside block-data
         * mode at the top level, and going back to that mode drains the buffer.
         */
        long measure(Object value) throws IOException {
            long start = counter.count;
            out.writeObject(value);
            out.flush();
            long n = HEADER + counter.count - start;
            out.reset();                      // forgets handles and replacements: see the overview
            return n;
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
