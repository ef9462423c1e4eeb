/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.Message;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link KeyExchange}'s two sides, without a cluster: what each accepts, and what a third member can do. */
class KeyExchangeTest {

    private final WireCodec codec = new WireCodec(List.of(), 64 * 1024);

    private Wire.Received sealedFrame(Wire.Seal seal) {
        return (Wire.Received) codec.decode(codec.encode(new Wire.Frame(0, new Message.ReleaseKey("k")), seal));
    }

    @Test
    void bothSidesDeriveTheSameKeyAndTheWorkerFixesItOnTheSealedProbe() {
        KeyExchange.Offers coordinator = new KeyExchange.Offers(id -> 7);
        KeyExchange.Answers worker = new KeyExchange.Answers();
        byte[] offer = coordinator.offer(0, 7);
        assertThat(coordinator.offer(0, 7)).as("the same offer for every probe of one process").isEqualTo(offer);
        byte[] token = worker.answer(offer);
        assertThat(coordinator.key(0, 7)).as("no key before the answer").isNull();
        assertThat(coordinator.answered(0, 7, offer, token)).isTrue();
        PairKey key = coordinator.key(0, 7);
        assertThat(key).isNotNull();
        assertThat(worker.key()).as("not before the sealed probe").isNull();
        assertThat(worker.sealedByCoordinator(sealedFrame(key))).as("a sealed frame that is not a probe").isFalse();
        assertThat(worker.key()).isNull();
        assertThat(worker.sealedByCoordinator(sealedProbe(0, offer, key))).isTrue();
        assertThat(worker.key()).isNotNull();
        assertThat(sealedFrame(worker.key()).sealedBy(key)).as("the same key on both sides").isTrue();
        assertThat(worker.sealedByCoordinator(sealedFrame(Wire.Seal.NONE))).isFalse();
    }

    @Test
    void theCoordinatorTakesOnlyAnAnswerThatEchoesItsOfferForThatProcess() {
        AtomicLong current = new AtomicLong(1);
        KeyExchange.Offers coordinator = new KeyExchange.Offers(id -> current.get());
        byte[] offer = coordinator.offer(3, 1);
        byte[] token = FrameMac.randomToken();
        assertThat(coordinator.answered(3, 1, FrameMac.randomToken(), token)).as("a forged echo").isFalse();
        assertThat(coordinator.answered(3, 2, offer, token)).as("another incarnation").isFalse();
        assertThat(coordinator.answered(4, 1, offer, token)).as("another worker").isFalse();
        assertThat(coordinator.key(3, 1)).isNull();
        assertThat(coordinator.answered(3, 1, offer, token)).isTrue();
        assertThat(coordinator.answered(3, 1, offer, FrameMac.randomToken())).as("a changed token").isFalse();
        assertThat(coordinator.answered(3, 1, offer, token)).as("the same answer again").isTrue();
        assertThat(coordinator.offer(3, 2)).as("not while process 1 is the id's").isNull();
        current.set(2);
        byte[] next = coordinator.offer(3, 2);
        assertThat(next).as("a new process of the id gets a new offer").isNotEqualTo(offer);
        assertThat(coordinator.key(3, 1)).as("the old process's key is gone").isNull();
        assertThat(coordinator.key(3, 2)).isNull();
    }

    @Test
    void forgedOffersNeverYieldAKeyTheForgerCanSealWithAndDoNotLockTheTrueOfferOut() {
        KeyExchange.Offers coordinator = new KeyExchange.Offers(id -> 1);
        KeyExchange.Answers worker = new KeyExchange.Answers();
        for (int i = 0; i < 24; i++) {
            byte[] forged = FrameMac.randomToken();
            worker.answer(forged);
            // the forger knows its offer, never the worker's token (that goes to the coordinator)
            assertThat(worker.sealedByCoordinator(sealedProbe(0, forged, PairKey.derive(forged, FrameMac.randomToken()))))
                    .isFalse();
        }
        byte[] offer = coordinator.offer(0, 1);
        assertThat(coordinator.answered(0, 1, offer, worker.answer(offer))).isTrue();
        assertThat(worker.sealedByCoordinator(sealedProbe(0, offer, coordinator.key(0, 1)))).isTrue();
        // once fixed, further offers are answered but change nothing
        byte[] late = FrameMac.randomToken();
        byte[] lateToken = worker.answer(late);
        assertThat(worker.sealedByCoordinator(sealedProbe(0, late, PairKey.derive(late, lateToken)))).as(
                "even with the worker's token, a key fixed is fixed").isFalse();
        assertThat(worker.sealedByCoordinator(sealedFrame(coordinator.key(0, 1)))).isTrue();
    }

    private Wire.Received sealedProbe(int worker, byte[] offer, Wire.Seal seal) {
        return (Wire.Received) codec.decode(codec.encode(new Wire.Frame(worker, new Wire.Probe(worker, offer)), seal));
    }

    @Test
    void forgedOffersBetweenTheAnswerAndTheSealedProbeDoNotLockTheTrueOfferOut() {
        KeyExchange.Offers coordinator = new KeyExchange.Offers(id -> 1);
        KeyExchange.Answers worker = new KeyExchange.Answers();
        byte[] offer = coordinator.offer(0, 1);
        assertThat(coordinator.answered(0, 1, offer, worker.answer(offer))).isTrue();
        // a third member floods the worker with offers in the coordinator's name while the
        // coordinator's sealed probe is on its way
        for (int i = 0; i < 8; i++) {
            worker.answer(FrameMac.randomToken());
        }
        assertThat(worker.sealedByCoordinator(sealedProbe(0, offer, coordinator.key(0, 1))))
                .as("the coordinator's sealed probe still settles the key").isTrue();
        assertThat(worker.key()).isNotNull();
    }

    @Test
    void aProbeOfAProcessJustReplacedDoesNotTakeItsSuccessorsKey() {
        KeyExchange.Offers coordinator = new KeyExchange.Offers(id -> 2);
        KeyExchange.Answers successor = new KeyExchange.Answers();
        // worker 0's new process (incarnation 2) settles its key with the coordinator
        byte[] offer = coordinator.offer(0, 2);
        assertThat(coordinator.answered(0, 2, offer, successor.answer(offer))).isTrue();
        PairKey key = coordinator.key(0, 2);
        assertThat(successor.sealedByCoordinator(sealedProbe(0, offer, key))).isTrue();
        // another probe thread (a late join's allReady) read the id's incarnation just before the
        // successor took the id, and asks for an offer for the old process now
        assertThat(coordinator.offer(0, 1)).as("no offer for a process the id no longer has").isNull();
        assertThat(coordinator.key(0, 2)).as("the successor's key, which it has fixed for good").isNotNull();
    }
}
