/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.Serializable;

/** A user value of {@link SpillRegressionTest}, which loads a second copy of this class in a loader of its own. */
public final class SpillRegressionPayload implements Sized, Serializable {
    private static final long serialVersionUID = 1L;
    private final int n;
    private final byte[] pad;

    public SpillRegressionPayload(int n, byte[] pad) {
        this.n = n;
        this.pad = pad;
    }

    public int n() {
        return n;
    }

    @Override
    public long sizeInBytes() {
        return pad.length;
    }
}
