/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.io.Serializable;

/** Measures values as the wire would see them. */
final class Sizes {

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
     * to move" to placement.
     */
    static long plus(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
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
