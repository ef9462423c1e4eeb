/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Message;
import dev.spindle.cluster.WireMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a holder answers of a batch of fetch requests in a verified frame (so from a holder of the
 * secret): only a batch of requests for itself from the frame's sender, within the batch bound.
 */
class FetchBatchTest {

    private static final int HOLDER = 0;
    private static final int SENDER = 1;

    private static WireMessage.FetchRequest request(String key) {
        return new WireMessage.FetchRequest(key, HOLDER, SENDER);
    }

    @Test
    void aBatchOfRequestsForThisHolderFromTheSenderIsAnsweredInOrder() {
        List<Object> bodies = List.of(request("a"), request("b"), request("a"));
        assertThat(WorkerTransport.fetchRequests(bodies, HOLDER, SENDER)).containsExactly(request("a"), request("b"),
                request("a"));
    }

    @Test
    void oneForeignBodyRefusesTheWholeBatch() {
        // another holder's request, a request on another worker's behalf, a message, a reply
        for (Object foreign : List.of(new WireMessage.FetchRequest("b", 2, SENDER),
                new WireMessage.FetchRequest("b", HOLDER, 2), new Message.ReleaseKey("b"),
                new WireMessage.FetchReply("b", HOLDER, null))) {
            assertThat(WorkerTransport.fetchRequests(List.of(request("a"), foreign), HOLDER, SENDER))
                    .as("a batch with %s", foreign).isNull();
        }
    }

    @Test
    void aBatchOverTheBoundOrEmptyIsRefused() {
        List<Object> most = new ArrayList<>(Collections.nCopies(WorkerTransport.FETCH_BATCH, request("big")));
        assertThat(WorkerTransport.fetchRequests(most, HOLDER, SENDER)).hasSize(WorkerTransport.FETCH_BATCH);
        most.add(request("big"));
        assertThat(WorkerTransport.fetchRequests(most, HOLDER, SENDER)).isNull();
        assertThat(WorkerTransport.fetchRequests(List.of(), HOLDER, SENDER)).isNull();
    }
}
