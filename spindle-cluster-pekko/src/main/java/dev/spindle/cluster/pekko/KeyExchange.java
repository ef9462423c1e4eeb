/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.FrameMac;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntToLongFunction;

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
 *       the {@code Kc} it was offered. It keeps nothing of the offer: it cannot yet tell a true
 *       offer from one forged in the coordinator's name, and the sealed probe carries the offer
 *       again.
 *   <li>The coordinator accepts an answer only if it echoes its own {@code Kc}: only the process
 *       at the worker's address saw it, so {@code Kw} is that process's. It now holds the pair's
 *       key and probes again, sealed with it (a MAC of the frame under the key).
 *   <li>The worker derives {@code key(Kc, Kw)} ({@link PairKey#derive}) from the offer this
 *       sealed probe carries; if it verifies the seal, the worker takes it as its key with the
 *       coordinator for good, and answers sealed. The coordinator counts the
 *       worker ready (and the scheduler sends it work) only after a sealed answer, so the worker
 *       has fixed its key before any task reaches it.
 * </ol>
 * From then on every frame between the two is sealed with the key and refused unsealed
 * ({@link Wire.Received#sealedBy}). A third member knows neither {@code Kc} (sent only to the
 * worker) nor {@code Kw} (sent only to the coordinator): it cannot seal a frame, so it cannot
 * make a worker run a task nor the coordinator accept a result. Offers it forges in the
 * coordinator's name leave no state in the worker (a forged offer kept as a candidate could push
 * the true one out): a probe it seals with a key of its own offer cannot be verified without
 * {@code Kw}. An answer it forges cannot echo {@code Kc}.
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

    private KeyExchange() {
    }

    /**
     * The coordinator's side: one offer per worker id, renewed for each new process of the id,
     * never for a process the id no longer has (a probe that read the id's incarnation just before
     * a new process took it must not replace the new process's offer, whose key that process has
     * fixed for good).
     */
    static final class Offers {

        private final ConcurrentHashMap<Integer, Offer> offers = new ConcurrentHashMap<>();
        private final IntToLongFunction current;

        /** @param current the incarnation of worker id's current process (the roster's) */
        Offers(IntToLongFunction current) {
            this.current = current;
        }

        private static final class Offer {
            final long incarnation;
            final byte[] token = FrameMac.randomToken();
            byte[] workerToken;               // guarded by this
            volatile PairKey key;

            Offer(long incarnation) {
                this.incarnation = incarnation;
            }
        }

        /**
         * The token to offer worker {@code id}'s process {@code incarnation}: the same for every
         * probe of it; {@code null} if that process is no longer the id's current one.
         */
        byte[] offer(int id, long incarnation) {
            // an incarnation, once replaced, is never current again: checked inside compute, a
            // stale probe cannot replace the offer of the process that replaced it
            Offer offer = offers.compute(id, (k, o) -> (o != null && o.incarnation == incarnation)
                    || current.applyAsLong(id) != incarnation ? o : new Offer(incarnation));
            return offer != null && offer.incarnation == incarnation ? offer.token.clone() : null;
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

    /** A worker's side: its token, then its key. */
    static final class Answers {

        private final byte[] token = FrameMac.randomToken();
        private volatile PairKey key;

        /**
         * This worker's token, for the answer to an offer made in the name of the coordinator this
         * worker follows. Nothing of the offer is kept: the sealed probe carries it again.
         */
        byte[] answer(byte[] offer) {
            return token.clone();
        }

        /**
         * Whether a frame in the name of the coordinator is sealed with the key this worker shares
         * with it; before the key is fixed, only a probe sealed with the key of the offer it
         * carries is, and it fixes the key.
         */
        boolean sealedByCoordinator(Wire.Received frame) {
            PairKey k = key;
            if (k != null) {
                return frame.sealedBy(k);
            }
            if (!(frame.frame().single() instanceof Wire.Probe p)) {
                return false;
            }
            PairKey offered = PairKey.derive(p.offer(), token);
            if (!frame.sealedBy(offered)) {
                return false;
            }
            synchronized (this) {
                if (key == null) {
                    key = offered;
                }
                return frame.sealedBy(key);
            }
        }

        /** The key shared with the coordinator, or {@code null} before it is fixed. */
        PairKey key() {
            return key;
        }
    }
}
