/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

/**
 * The owner-side clearing of slots whose elements other threads took, shared by
 * {@link WorkStealingDeque} and {@link OwnerFifo}: a thief cannot null the slot it won (the owner
 * may already have refilled it), so the owner nulls taken slots lazily, when it adds an element.
 * Both queues' overviews give the argument; in short, an index below the take counter
 * ({@code top}, {@code head}) can never be taken again, and an index below
 * {@code tail - length} is never cleared because its slot holds a later index.
 *
 * <p>The owner leaves the {@code lag} slots just below the take counter alone while the queue
 * holds elements: thieves are reading those cache lines, and a store there takes each line away
 * from every thief. Adding into an empty queue clears them all, since no thief reads slots then.
 */
final class TakenSlots {

    private TakenSlots() {
    }

    /**
     * Nulls the slots of taken indices in {@code [cleared, taken)} that are safe to clear now.
     * Owner only.
     *
     * @param ring the ring, a power of two long
     * @param cleared indices below this are cleared already
     * @param taken the take counter as the owner read it: every index below it was taken
     * @param tail the owner's next index to fill
     * @param lag how far below {@code taken} to stay while the queue holds elements
     * @return the new {@code cleared}
     */
    static long clear(Object[] ring, long cleared, long taken, long tail, int lag) {
        long upTo = taken == tail ? taken : taken - lag;
        int mask = ring.length - 1;
        for (long i = Math.max(cleared, tail - ring.length); i < upTo; i++) {
            ring[(int) i & mask] = null;
        }
        return Math.max(cleared, upTo);
    }
}
