/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A spill file is read back with Java serialisation, and its classes were resolved to those the
 * value was written with, but a class it did not have was looked up by name as well: any
 * serialisable class on the worker's class path, with no allow-list, was read, its
 * {@code readObject} run, before the checksum (taken after the read) could tell the file had
 * changed. Whoever could put a file in the spill directory's place (another process of the user,
 * or another user given a {@code --spill-dir} they may write in) had the worker deserialise a
 * stream of their making, the classic way to run code in a JVM. A spill file may now name only
 * the classes its value was written with: anything else is refused before it is loaded, and the
 * copy is lost, as a damaged file's is.
 */
class SpillFileNamesOnlyItsValuesClassesTest {

    private static final int MB = 1_000_000;

    /** A class the spilled value does not have, whose readObject tells whether it ran. */
    static final class Planted implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile boolean ran;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            ran = true;
        }
    }

    @Test
    void aClassTheValueDidNotHaveIsNotReadFromItsFile(@TempDir Path parent) throws Exception {
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            byte[] data = new byte[MB];
            Arrays.fill(data, (byte) 1);
            store.put("a", new MemoryReleaseTest.Chunk(data), MB);
            store.put("b", new MemoryReleaseTest.Chunk(data.clone()), MB);
            List<Path> files = spillFiles(parent);
            assertThat(files).as("a spilled").hasSize(1);
            Path file = files.get(0);
            byte[] planted = stream(new Planted());
            // the same length as what was written: only the checksum, taken after the read, differs
            Files.write(file, Arrays.copyOf(planted, Math.toIntExact(Files.size(file))));
            Planted.ran = false;

            assertThatThrownBy(() -> store.get("a")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("the spilled value of 'a' is lost");
            assertThat(Planted.ran).as("the planted class's readObject ran").isFalse();
        } finally {
            store.clear();
        }
    }

    /** A proxy's handler that can be spilled. */
    static final class Handler implements InvocationHandler, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            return method.getName().equals("get") ? "from the proxy" : null;
        }
    }

    /** What a spill file may name: every class its value has, a proxy's and a lambda's included. */
    @Test
    void theValuesOwnClassesStillReadBack(@TempDir Path parent) throws Exception {
        DataStore store = new DataStore(new WorkerMemory(2L * MB, parent));
        try {
            @SuppressWarnings("unchecked")
            Supplier<String> proxy = (Supplier<String>) Proxy.newProxyInstance(getClass().getClassLoader(),
                    new Class<?>[] {Supplier.class, Serializable.class}, new Handler());
            TaskFunction<Integer> lambda = args -> 41;
            ArrayList<Object> value = new ArrayList<>(List.of(TimeUnit.SECONDS, proxy, lambda, new int[] {1, 2},
                    new MemoryReleaseTest.Chunk(new byte[MB])));
            store.put("a", value, 2L * MB);
            store.put("b", new MemoryReleaseTest.Chunk(new byte[MB]), MB);
            assertThat(spillFiles(parent)).as("a spilled").hasSize(1);

            List<?> back = (List<?>) store.get("a");
            assertThat(back.get(0)).isEqualTo(TimeUnit.SECONDS);
            assertThat(((Supplier<?>) back.get(1)).get()).isEqualTo("from the proxy");
            assertThat(((TaskFunction<?>) back.get(2)).apply(List.of())).isEqualTo(41);
            assertThat((int[]) back.get(3)).containsExactly(1, 2);
        } finally {
            store.clear();
        }
    }

    private static byte[] stream(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    private static List<Path> spillFiles(Path parent) throws IOException {
        try (Stream<Path> all = Files.walk(parent)) {
            return all.filter(Files::isRegularFile).toList();
        }
    }
}
