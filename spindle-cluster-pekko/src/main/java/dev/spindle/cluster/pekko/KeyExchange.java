/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.FrameMac;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * How the coordinator and each worker process come to share a key that no other member knows,
 * so that each can tell the other's frames from a third member's.
 *
 * <h2>Why it is needed</h2>
 * TLS lets only holders of a certificate of the cluster's CA into the cluster, but inside it
 * Artery carries a message's sender as a path that the sending process writes: any certificate
 * holder can name the coordinator, or a worker, as the sender of its message. What Artery does
 * guarantee is the other direction: a message sent <em>to</em> an address reaches only the
 * process that holds that address (its TLS connection). The exchange builds on that alone.
 *
 * <h2>The protocol</h2>
 * The coordinator's readiness probe ({@link Wire.Probe}) carries it:
 * <ol>
 *   <li>The coordinator draws a random token {@code Kc} for worker {@code id}'s current process
 *       (its incarnation) and sends it in a probe <em>to the address</em> the worker registered
 *       with. Only that process reads it.
 *   <li>The worker answers a probe only if it names the coordinator the worker follows as
 *       sender, and only <em>to that sender</em>: the reply reaches the coordinator's process
 *       alone. It carries the worker's own random token {@code Kw} (one per process) and echoes
 *       the {@code Kc} it was offered; the worker keeps {@code key(Kc, Kw)} as a candidate
 *       ({@link PairKey#derive}), since it cannot yet tell a true offer from one forged in the
 *       coordinator's name.
 *   <li>The coordinator accepts an answer only if it echoes its own {@code Kc}: only the process
 *       at the worker's address saw it, so {@code Kw} is that process's. It now holds the pair's
 *       key and probes again, sealed with it (a MAC of the frame under the key).
 *   <li>The worker takes the candidate that verifies this sealed probe as its key with the
 *       coordinator for good, drops the others, and answers sealed. The coordinator counts the
 *       worker ready (and the scheduler sends it work) only after a sealed answer, so the worker
 *       has fixed its key before any task reaches it.
 * </ol>
 * From then on every frame between the two is sealed with the key and refused unsealed
 * ({@link Wire.Received#sealedBy}). A third member knows neither {@code Kc} (sent only to the
 * worker) nor {@code Kw} (sent only to the coordinator): it cannot seal a frame, so it cannot
 * make a worker run a task nor the coordinator accept a result. Offers it forges in the
 * coordinator's name give the worker candidates that no sealed frame ever verifies, and fill at
 * most {@value #MAX_CANDIDATES} slots (the oldest is dropped): at worst they delay the
 * exchange, and the coordinator probes again. An answer it forges cannot echo {@code Kc}.
 *
 * <p>Workers fetch values from one another with a request that carries a random nonce; the
 * reply must echo it ({@link Wire.Received#carries}). The request goes to the holder's address,
 * so only the holder sees the nonce, and a forged reply is refused. A fetch request itself need
 * not be sealed: its reply goes to the sender it names, never to a third member that forged it.
 *
 * <p>Replay needs no sequence numbers here: the sealed frames travel only inside the TLS
 * connection between the two processes, which no third member reads, and TLS refuses a replayed
 * record.
 */
final class KeyExchange {

    /** The most offers a worker keeps before it knows which is its coordinator's. */
    static final int MAX_CANDIDATES = 8;

    private KeyExchange() {
    }

    /** The coordinator's side: one offer per worker id, renewed for each new process of the id. */
    static final class Offers {

        private final ConcurrentHashMap<Integer, Offer> offers = new ConcurrentHashMap<>();

        private static final class Offer {
            final long incarnation;
            final byte[] token = FrameMac.randomToken();
            byte[] workerToken;               // guarded by this
            volatile PairKey key;

            Offer(long incarnation) {
                this.incarnation = incarnation;
            }
        }

        /** The token to offer worker {@code id}'s process {@code incarnation}: the same for every probe of it. */
        byte[] offer(int id, long incarnation) {
            return offers.compute(id, (k, o) -> o != null && o.incarnation == incarnation ? o : new Offer(incarnation))
                    .token.clone();
        }

        /**
         * An answer of worker {@code id}'s process {@code incarnation}: if it echoes the offer,
         * the pair's key is set (once; a process answers with one token).
         *
         * @return whether the answer is genuine
         */
        boolean answered(int id, long incarnation, byte[] echo, byte[] workerToken) {
            Offer o = offers.get(id);
            if (o == null || o.incarnation != incarnation || !FrameMac.equal(echo, o.token)
                    || workerToken.length != FrameMac.BYTES) {
                return false;
            }
            synchronized (o) {
                if (o.workerToken == null) {
                    o.workerToken = workerToken.clone();
                    o.key = PairKey.derive(o.token, workerToken);
                }
                return FrameMac.equal(o.workerToken, workerToken);
            }
        }

        /** The key shared with worker {@code id}'s process {@code incarnation}, or {@code null} before it answered. */
        PairKey key(int id, long incarnation) {
            Offer o = offers.get(id);
            return o != null && o.incarnation == incarnation ? o.key : null;
        }
    }

    /** A worker's side: its token, the candidate keys of the offers it answered, then its key. */
    static final class Answers {

        private final byte[] token = FrameMac.randomToken();
        private final List<Candidate> candidates = new ArrayList<>();   // guarded by this
        private volatile PairKey key;

        private record Candidate(byte[] offer, PairKey key) {
        }

        /**
         * Records an offer made in the name of the coordinator this worker follows (unless the key
         * is fixed already) and returns this worker's token for the answer.
         */
        synchronized byte[] answer(byte[] offer) {
            if (key == null && offer.length == FrameMac.BYTES
                    && candidates.stream().noneMatch(c -> FrameMac.equal(c.offer, offer))) {
                if (candidates.size() == MAX_CANDIDATES) {
                    candidates.remove(0);
                }
                candidates.add(new Candidate(offer.clone(), PairKey.derive(offer, token)));
            }
            return token.clone();
        }

        /**
         * Whether a frame in the name of the coordinator is sealed with the key this worker shares
         * with it; the first sealed frame fixes the key among the candidates.
         */
        boolean sealedByCoordinator(Wire.Received frame) {
            PairKey k = key;
            if (k != null) {
                return frame.sealedBy(k);
            }
            synchronized (this) {
                for (Candidate c : candidates) {
                    if (frame.sealedBy(c.key)) {
                        key = c.key;
                        candidates.clear();
                        return true;
                    }
                }
                return key != null && frame.sealedBy(key);
            }
        }

        /** The key shared with the coordinator, or {@code null} before it is fixed. */
        PairKey key() {
            return key;
        }
    }
}
