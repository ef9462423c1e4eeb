/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

/**
 * The answer of a {@link FetchCall} (a signed frame of fetch replies, or of a probe's answer),
 * typed as the tasks are. A call's answer travels back as what {@code call()} returns: as a plain
 * {@code byte[]}, Hazelcast would allocate the length the answering member declares before reading
 * a byte, and hand the whole array over. Read by the requester's factory, its length is checked
 * against the requester's limit first ({@link FrameTask#readData}): a reply over the limit is
 * counted as oversized and arrives with {@link #frame} {@code null}, unread.
 *
 * <p>This bounds what an answer of Spindle's code costs (a holder's reply over the limit). It is
 * no defence against a member that runs other code: the answering member chooses the type of its
 * answer, and Hazelcast reads one of another type (a plain {@code byte[]} declaring any length)
 * before the requester's callback sees it. Hazelcast's reading is not bounded by Spindle (the
 * module's README, "Security model").
 */
final class FrameReply extends FrameTask {

    FrameReply() {
    }

    FrameReply(SpindleSerializables receiver) {
        super(receiver);
    }

    FrameReply(byte[] frame) {
        super(frame);
    }

    @Override
    public int getClassId() {
        return SpindleSerializables.REPLY;
    }
}
