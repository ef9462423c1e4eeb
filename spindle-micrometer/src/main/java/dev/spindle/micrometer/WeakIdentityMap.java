/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * A map from objects, compared by identity and held weakly, to values: what a {@link
 * java.util.WeakHashMap} is for keys whose {@code equals} and {@code hashCode} are their own.
 * The keys here are the user's ({@code ClusterView}s, {@code MeterRegistry}s): keyed by their
 * {@code equals}, two that called themselves equal shared one entry, and one whose hash changed
 * was not found under its new hash (a new entry each time it was looked up, kept for as long as
 * the key lived, its earlier entries lost to it). An entry goes once its key has been collected,
 * at the next call. Not thread-safe: the caller locks.
 *
 * @param <K> the keys, compared by identity
 * @param <V> the values, which must not hold their key (it would never be collected)
 */
final class WeakIdentityMap<K, V> {

    private final Map<Ref<K>, V> entries = new HashMap<>();
    private final ReferenceQueue<K> collected = new ReferenceQueue<>();

    /**
     * {@code key}'s value, made by {@code make} and kept if it has none.
     *
     * @param key the key, not null
     * @param make makes the value, called at most once, returns non-null
     * @return the value kept for {@code key}
     */
    V computeIfAbsent(K key, Supplier<? extends V> make) {
        expunge();
        V value = entries.get(new Ref<>(key, null));
        if (value == null) {
            value = make.get();
            entries.put(new Ref<>(key, collected), value);
        }
        return value;
    }

    /**
     * {@code key}'s value.
     *
     * @param key the key, not null
     * @return the value kept for {@code key}, or null if it has none
     */
    V get(K key) {
        expunge();
        return entries.get(new Ref<>(key, null));
    }

    /**
     * Gives {@code each} every key not collected yet, with its value. {@code each} must not change
     * this map.
     */
    void forEach(BiConsumer<? super K, ? super V> each) {
        expunge();
        entries.forEach((ref, value) -> {
            K key = ref.get();
            if (key != null) {                // collected since, its entry not yet expunged
                each.accept(key, value);
            }
        });
    }

    /** Removes every entry. */
    void clear() {
        entries.clear();
        while (collected.poll() != null) {
            // drained: their entries are gone already
        }
    }

    /** {@return the entries whose keys have not been seen collected} */
    int size() {
        expunge();
        return entries.size();
    }

    private void expunge() {
        for (Reference<? extends K> gone; (gone = collected.poll()) != null; ) {
            entries.remove(gone);             // a cleared Ref equals itself only
        }
    }

    /** A key, held weakly, equal to a Ref of the same object (its own identity hash kept). */
    private static final class Ref<K> extends WeakReference<K> {
        private final int hash;

        Ref(K key, ReferenceQueue<K> queue) {
            super(key, queue);
            this.hash = System.identityHashCode(key);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            if (o == this) {
                return true;
            }
            Object key = get();
            return key != null && o instanceof Ref<?> r && r.get() == key;
        }
    }
}
