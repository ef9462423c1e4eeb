/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

/**
 * What a member refused, for the operator. Members are counted once each; frames once per frame.
 * Each offender is also logged once (logger {@code dev.spindle.cluster.hazelcast.Offences}).
 *
 * @param refusedMembers members that did not prove the shared secret or claimed a taken worker id
 * @param refusedCoordinators members that claimed to be a second coordinator, or a coordinator
 *        that did not prove the secret
 * @param badSignatures frames with a missing or wrong signature
 * @param replays signed frames of another session, or with a sequence number seen before
 * @param oversizedFrames frames whose declared length exceeded the limit (refused before allocation)
 * @param refusedClasses signed payloads that named a class outside the allow-list or were unreadable
 */
public record SecurityStats(long refusedMembers, long refusedCoordinators, long badSignatures, long replays,
                            long oversizedFrames, long refusedClasses) {

    static SecurityStats of(Offences o) {
        return new SecurityStats(o.count(Offences.Kind.REFUSED_MEMBER), o.count(Offences.Kind.REFUSED_COORDINATOR),
                o.count(Offences.Kind.BAD_SIGNATURE), o.count(Offences.Kind.REPLAY), o.count(Offences.Kind.OVERSIZED),
                o.count(Offences.Kind.REFUSED_CLASS));
    }
}
