/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * A value that reports its own size in bytes, so that the cluster need not serialise it to
 * measure it. Benchmarks use it for large synthetic payloads: a {@code Sized} value of a
 * gigabyte costs a gigabyte's transfer time between workers without allocating one.
 *
 * <pre>{@code
 * record Block(long bytes) implements Sized, java.io.Serializable {
 *     public long sizeInBytes() { return bytes; }
 * }
 * }</pre>
 */
public interface Sized {

    /**
     * The number of bytes this value would occupy on the wire; never negative.
     *
     * @return the size in bytes, 0 or more
     */
    long sizeInBytes();
}
