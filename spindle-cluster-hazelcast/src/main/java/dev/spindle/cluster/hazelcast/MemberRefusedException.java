/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

/**
 * A Spindle member cannot take part in its cluster: its secret differs from the coordinator's,
 * or its worker id is held by another member. The message gives the reason.
 */
public final class MemberRefusedException extends Exception {

    private static final long serialVersionUID = 1L;

    MemberRefusedException(String message) {
        super(message);
    }
}
