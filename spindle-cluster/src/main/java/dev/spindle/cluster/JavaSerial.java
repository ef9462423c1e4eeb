/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.OutputStream;

/**
 * Java serialisation as the transports between JVMs use it: writing with an optional size
 * limit, and reading only through an {@link ObjectInputFilter} (normally one built from
 * {@link SerialAllowList#pattern}). What a transport does with a refusal (count it, log the
 * offender, answer the sender) stays in the transport: {@link #read} tells a class or limit the
 * filter refused ({@link InvalidClassException}) apart from input that is merely unreadable.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class JavaSerial {

    private JavaSerial() {
    }

    /**
     * Serialises {@code value}.
     *
     * @param value the object to serialise (may be {@code null})
     * @return a new array holding the Java serialisation stream
     * @throws IllegalArgumentException if it (or an object it refers to) is not serialisable
     */
    public static byte[] serialize(Object value) {
        return write(value).toByteArray();
    }

    /**
     * Serialises {@code value}, refusing a result longer than {@code limit} bytes: the write stops
     * soon after it passes the limit (the stream refuses every byte 64 KiB past it), so a value of
     * gigabytes costs about the limit in memory, not its size (twice over, as the buffer doubled),
     * before it is refused.
     *
     * @param what what the limit is for, in the message (e.g. {@code "frame"})
     * @param value the object to serialise (may be {@code null})
     * @param limit the most bytes allowed
     * @return a new array holding the serialisation stream, at most {@code limit} bytes
     * @throws IllegalArgumentException if it is not serialisable or longer than the limit; the
     *         message then reads well after the value's name ("is more than L bytes serialised,
     *         over the frame limit of L")
     */
    public static byte[] serialize(Object value, int limit, String what) {
        Limited bytes = new Limited(limit);
        boolean over;
        try {
            write(value, bytes);
            over = bytes.over;                // within the slack, or refused and swallowed by the value's writeObject
        } catch (RuntimeException e) {
            // the refusal, wrapped here or by the value's writeObject; not any other failure (not
            // serialisable, say), after which the stream writes the exception and may pass the limit
            over = causedBy(e, OverLimit.class);
            if (!over) {
                throw e;
            }
        }
        if (over) {
            throw new IllegalArgumentException("is more than " + limit + " bytes serialised, over the " + what
                    + " limit of " + limit);
        }
        return bytes.buffer.toByteArray();
    }

    private static ByteArrayOutputStream write(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        write(value, bytes);
        return bytes;
    }

    private static void write(Object value, OutputStream bytes) {
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot serialise " + value.getClass().getName() + ": " + e, e);
        }
    }

    /**
     * A buffer that holds what is written up to {@code limit} bytes and {@link #SLACK} more, and
     * refuses ({@link OverLimit}) any write past that, and every write after that one: a value's
     * writeObject that swallows a refusal and writes on is refused all the same. {@link #over}
     * tells whether more than {@code limit} bytes were written. The slack leaves room for the
     * exception that {@code ObjectOutputStream} writes into the stream when a value fails (one
     * not serialisable, say), so that such a value is refused for what it is, not for its size.
     */
    private static final class Limited extends OutputStream {
        static final int SLACK = 64 * 1024;
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final long limit;
        private boolean refused;
        boolean over;

        Limited(int limit) {
            this.limit = limit;
        }

        @Override
        public void write(int b) throws IOException {
            room(1);
            buffer.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            room(len);
            buffer.write(b, off, len);
        }

        private void room(int len) throws IOException {
            long size = (long) buffer.size() + len;
            over |= size > limit;
            if (refused || size > limit + SLACK) {
                refused = true;
                over = true;
                throw new OverLimit("over the limit of " + limit + " bytes");
            }
        }
    }

    /** {@link Limited}'s refusal. */
    private static final class OverLimit extends IOException {
        private static final long serialVersionUID = 1L;

        OverLimit(String message) {
            super(message);
        }
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> cause) {
        for (int depth = 0; t != null && depth < 32; t = t.getCause(), depth++) {
            if (cause.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Reads one object from {@code length} bytes at {@code offset} through {@code filter}.
     *
     * @param bytes the buffer holding the stream
     * @param offset where the stream starts in {@code bytes}
     * @param length the stream's length in bytes
     * @param filter decides which classes, depths, array lengths and references are allowed;
     *        before it is asked, the arrays are bounded by the stream's length (see
     *        {@link ArrayBudget})
     * @return the object read (may be {@code null})
     * @throws InvalidClassException if the filter refused a class or a limit, or the arrays
     *         declare more than the stream's length allows
     * @throws SecurityException if the bytes are not a readable object stream (including one
     *         deep enough to overflow the stack, or one naming a class that cannot be linked or
     *         initialised here), with "unreadable payload" and the cause
     */
    public static Object read(byte[] bytes, int offset, int length, ObjectInputFilter filter)
            throws InvalidClassException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes, offset, length))) {
            in.setObjectInputFilter(new ArrayBudget(length, filter));
            return in.readObject();
        } catch (InvalidClassException e) {
            throw e;
        } catch (IOException | ClassNotFoundException | RuntimeException | StackOverflowError | LinkageError e) {
            // LinkageError: a class the stream names cannot be linked or initialised on this member
            // (its static initialiser fails, a class it needs is missing): the peer's value is
            // unreadable here, as a class that is missing altogether is
            throw new SecurityException("unreadable payload: " + e);
        }
    }

    /**
     * The bound on a stream's arrays, checked before each is allocated: {@code ObjectInputStream}
     * allocates an array at its declared length before it reads a single element (as do the hash
     * tables of {@code HashMap} and {@code HashSet}, which ask the filter first), so a filter's
     * {@code maxarray} alone let a stream of a few bytes allocate that many.
     *
     * <ul>
     *   <li>Each array at most the stream's length: every element of a real array takes at
     *       least one byte of it.</li>
     *   <li>All arrays together at most twice the stream's length, counting an element of a
     *       primitive array by its size: each array alone within the length still let a chain of
     *       them, as deep as the depth limit and each referring to the next in a few bytes, be
     *       allocated whole before the stream ran out (about 80 bytes allocated for each byte
     *       received through the transports' limits; a 64 MiB result frame was 5 GiB on the
     *       coordinator, an {@code OutOfMemoryError}). Twice, not once: the JDK sizes a hash
     *       table it reads at up to 8 slots per entry (with the smallest load factor it accepts),
     *       and an entry takes at least 5 bytes of the stream.</li>
     * </ul>
     * One per stream: it counts what the stream declared so far.
     */
    static final class ArrayBudget implements ObjectInputFilter {
        private final long length;
        private final ObjectInputFilter next;
        private long declared;

        ArrayBudget(long length, ObjectInputFilter next) {
            this.length = length;
            this.next = next;
        }

        @Override
        public Status checkInput(FilterInfo info) {
            long n = info.arrayLength();
            if (n >= 0) {                          // -1: not an array
                declared += n * elementBytes(info.serialClass());
                if (n > length || declared > 2 * length) {
                    return Status.REJECTED;
                }
            }
            return next.checkInput(info);
        }

        /** Bytes an element of {@code arrayType} takes at least in a stream: a primitive's size, else 1. */
        private static int elementBytes(Class<?> arrayType) {
            Class<?> c = arrayType == null ? null : arrayType.getComponentType();
            if (c == null || !c.isPrimitive()) {
                return 1;
            }
            if (c == long.class || c == double.class) {
                return 8;
            }
            if (c == int.class || c == float.class) {
                return 4;
            }
            return c == char.class || c == short.class ? 2 : 1;
        }
    }
}
