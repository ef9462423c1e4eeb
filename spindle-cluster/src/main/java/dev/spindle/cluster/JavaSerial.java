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
     * Serialises {@code value}, refusing a result longer than {@code limit} bytes.
     *
     * @param what what the limit is for, in the message (e.g. {@code "frame"})
     * @param value the object to serialise (may be {@code null})
     * @param limit the most bytes allowed
     * @return a new array holding the serialisation stream, at most {@code limit} bytes
     * @throws IllegalArgumentException if it is not serialisable or longer than the limit; the
     *         message then reads well after the value's name ("is N bytes serialised, over the
     *         frame limit of L")
     */
    public static byte[] serialize(Object value, int limit, String what) {
        ByteArrayOutputStream bytes = write(value);
        if (bytes.size() > limit) {
            throw new IllegalArgumentException("is " + bytes.size() + " bytes serialised, over the " + what
                    + " limit of " + limit);
        }
        return bytes.toByteArray();
    }

    private static ByteArrayOutputStream write(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot serialise " + value.getClass().getName() + ": " + e, e);
        }
        return bytes;
    }

    /**
     * Reads one object from {@code length} bytes at {@code offset} through {@code filter}.
     *
     * @param bytes the buffer holding the stream
     * @param offset where the stream starts in {@code bytes}
     * @param length the stream's length in bytes
     * @param filter decides which classes, depths, array lengths and references are allowed; an
     *        array longer than {@code length} is refused before it is asked (each element of a
     *        real array takes at least one byte of the stream, and {@code ObjectInputStream}
     *        allocates an array at its declared length before it reads the elements, so a filter's
     *        bound alone, {@code maxarray}, would let a stream of a few bytes allocate that many)
     * @return the object read (may be {@code null})
     * @throws InvalidClassException if the filter refused a class or a limit, or an array's
     *         declared length is over {@code length}
     * @throws SecurityException if the bytes are not a readable object stream (including one
     *         deep enough to overflow the stack), with "unreadable payload" and the cause
     */
    public static Object read(byte[] bytes, int offset, int length, ObjectInputFilter filter)
            throws InvalidClassException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes, offset, length))) {
            in.setObjectInputFilter(info -> info.arrayLength() > length ? ObjectInputFilter.Status.REJECTED
                    : filter.checkInput(info));
            return in.readObject();
        } catch (InvalidClassException e) {
            throw e;
        } catch (IOException | ClassNotFoundException | RuntimeException | StackOverflowError e) {
            throw new SecurityException("unreadable payload: " + e);
        }
    }
}
