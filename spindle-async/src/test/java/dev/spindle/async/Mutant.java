/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A production class of this package with one known bug put in, run under a test of this
 * package, to show that the test finds the bug (that it has teeth) without a test-only copy of
 * the class in the repository and without a hook in production code.
 *
 * <p>The bug is a text replacement in the class's current source (each original snippet must
 * occur exactly once, so a mutation that no longer applies fails loudly instead of testing the
 * unmutated class). javac compiles the mutated source (into a temporary directory, against the
 * test class path); then the mutated class, the other classes named (those whose code or
 * signatures mention one another, and the test class) and their nested classes are copied under
 * new names, the references between them renamed in their constant pools, and defined in this
 * package's class loader. The copied test method runs there as it is (same scenario, same
 * invocation count) and must fail.
 *
 * <p>Why copies under new names, not the same names in another class loader: Lincheck caches the
 * bytes it instrumented by class name for the life of the JVM, so a second class of the same
 * name would silently run as the first. Why the copied test method, not the copied scenario handed
 * to {@code Lincheck.runConcurrentTest} from here: Lincheck instruments the class that defines
 * the block it is given, then lazily what instrumented code constructs or calls statically; a
 * method reference made here to the copy's scenario would leave the copy uninstrumented, and the
 * run would explore nothing and pass. The test method makes its method reference in its own
 * (copied) class, as in the suite.
 */
final class Mutant {

    /** The Java release the project compiles for ({@code maven.compiler.release}). */
    private static final String RELEASE = "17";
    private static final String PACKAGE = Mutant.class.getPackageName();
    private static final String PACKAGE_PATH = PACKAGE.replace('.', '/');
    /** Numbers the copies: a class name can be defined once per class loader. */
    private static final AtomicInteger COPIES = new AtomicInteger();

    private final Class<?> mutated;
    private final Class<?>[] along;
    private String source;

    private Mutant(Class<?> mutated, Class<?>[] along) {
        this.mutated = mutated;
        this.along = along;
        this.source = read(sourceFile(mutated));
    }

    /**
     * A mutant of {@code mutated}, copied together with {@code along} (every class of this
     * package whose code or signatures refer to another class of the group must be in it).
     */
    static Mutant of(Class<?> mutated, Class<?>... along) {
        return new Mutant(mutated, along);
    }

    /**
     * Replaces {@code original}, which must occur exactly once in the source (any run of white
     * space matching any other), by {@code bug}.
     */
    Mutant replace(String original, String bug) {
        Pattern p = Pattern.compile(Stream.of(original.strip().split("\\s+"))
                .map(Pattern::quote)
                .collect(Collectors.joining("\\s+")));
        Matcher m = p.matcher(source);
        boolean found = m.find();
        int start = found ? m.start() : -1;
        int end = found ? m.end() : -1;
        if (!found || m.find()) {
            throw new AssertionError("the mutation no longer applies: " + mutated.getSimpleName()
                    + ".java must contain exactly once:\n" + original);
        }
        source = source.substring(0, start) + bug + source.substring(end);
        return this;
    }

    /**
     * Runs {@code testClass}'s test method {@code method}, copied with the mutant, and returns
     * what it threw.
     *
     * @throws AssertionError if it passed against the mutant
     */
    Throwable failureOf(Class<?> testClass, String method) {
        Throwable failure = run(testClass, method);
        if (failure == null) {
            throw new AssertionError(testClass.getSimpleName() + "." + method + " passed against the mutant of "
                    + mutated.getSimpleName());
        }
        return failure;
    }

    /** Runs {@code testClass}'s test method {@code method}, copied with the mutant; what it threw, or null. */
    Throwable run(Class<?> testClass, String method) {
        Map<String, byte[]> classes = new LinkedHashMap<>(compile(mutated, source));
        List<Class<?>> group = new ArrayList<>(List.of(along));
        group.add(testClass);
        for (Class<?> c : group) {
            if (c != mutated) {
                for (Class<?> n : c.getNestMembers()) {
                    classes.put(n.getName(), bytesOf(n));
                }
            }
        }
        String suffix = "_Mutant" + COPIES.incrementAndGet();
        Map<String, String> names = new HashMap<>();
        names.put(mutated.getSimpleName(), mutated.getSimpleName() + suffix);
        for (Class<?> c : group) {
            names.put(c.getSimpleName(), c.getSimpleName() + suffix);
        }
        Map<String, byte[]> renamed = new LinkedHashMap<>();
        classes.forEach((name, bytes) -> renamed.put(name, rename(bytes, names)));
        Map<String, Class<?>> defined = new HashMap<>();
        for (byte[] bytes : renamed.values()) {
            define(bytes, renamed, defined);
        }
        try {
            Class<?> copy = defined.get(PACKAGE + "." + testClass.getSimpleName() + suffix);
            var constructor = copy.getDeclaredConstructor();
            constructor.setAccessible(true);
            Object test = constructor.newInstance();
            Method m = copy.getDeclaredMethod(method);
            m.setAccessible(true);
            m.invoke(test);
            return null;
        } catch (InvocationTargetException e) {
            return e.getCause();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ the source and javac

    private static Path sourceFile(Class<?> c) {
        try {
            URI classes = c.getProtectionDomain().getCodeSource().getLocation().toURI();
            Path module = Path.of(classes).getParent().getParent();         // target/classes
            Path file = module.resolve("src/main/java").resolve(PACKAGE_PATH).resolve(c.getSimpleName() + ".java");
            if (!Files.isRegularFile(file)) {
                throw new AssertionError("no source for " + c.getName() + " at " + file);
            }
            return file;
        } catch (URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The classes (binary name to bytes) javac makes of {@code source}, against the test class
     * path; through {@link java.util.spi.ToolProvider}, since this module does not read
     * {@code java.compiler}.
     */
    private static Map<String, byte[]> compile(Class<?> c, String source) {
        java.util.spi.ToolProvider javac = java.util.spi.ToolProvider.findFirst("javac")
                .orElseThrow(() -> new AssertionError("no javac in this runtime (a JRE?)"));
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path dir = null;
        try {
            dir = Files.createTempDirectory("mutant");
            Path src = dir.resolve("src").resolve(PACKAGE_PATH).resolve(c.getSimpleName() + ".java");
            Path out = dir.resolve("out");
            Files.createDirectories(src.getParent());
            Files.createDirectories(out);
            Files.writeString(src, source, StandardCharsets.UTF_8);
            StringWriter messages = new StringWriter();
            PrintWriter w = new PrintWriter(messages);
            // --release: the project's, so that a later JDK compiles the source against the API it
            // was written for (JDK 19 added Future.state(), which JoinHandle's own state() would
            // otherwise clash with)
            int rc = javac.run(w, w, "--release", RELEASE, "-classpath", classPath, "-d", out.toString(),
                    "-proc:none", "-g", "-nowarn", "-Xlint:none", "-encoding", "UTF-8", src.toString());
            w.flush();
            if (rc != 0) {
                throw new AssertionError("the mutant of " + c.getSimpleName() + " does not compile:\n" + messages);
            }
            Map<String, byte[]> classes = new LinkedHashMap<>();
            try (Stream<Path> files = Files.walk(out)) {
                for (Path f : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                    String name = out.relativize(f).toString().replace(f.getFileSystem().getSeparator(), ".");
                    classes.put(name.substring(0, name.length() - ".class".length()), Files.readAllBytes(f));
                }
            }
            return classes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (dir != null) {
                delete(dir);
            }
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind
        }
    }

    private static byte[] bytesOf(Class<?> c) {
        String resource = c.getName().replace('.', '/') + ".class";
        try (InputStream in = c.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new AssertionError("no class file " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ renaming and defining

    /**
     * Renames, in the constant pool's UTF-8 entries, every reference to a class of this package
     * named in {@code names} (simple name to new simple name), nested classes included: class
     * names, descriptors and signatures. Nothing else in a class file holds a class name.
     */
    private static byte[] rename(byte[] bytes, Map<String, String> names) {
        Pattern name = Pattern.compile(Pattern.quote(PACKAGE_PATH + "/") + "("
                + names.keySet().stream().map(Pattern::quote).collect(Collectors.joining("|")) + ")(?=[;$<.]|$)");
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            ByteArrayOutputStream buffer = new ByteArrayOutputStream(bytes.length + 256);
            DataOutputStream out = new DataOutputStream(buffer);
            out.writeInt(in.readInt());                        // magic
            out.writeInt(in.readInt());                        // minor, major
            int count = in.readUnsignedShort();
            out.writeShort(count);
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                out.writeByte(tag);
                switch (tag) {
                    case 1 -> {                                 // Utf8
                        Matcher m = name.matcher(in.readUTF());
                        out.writeUTF(m.replaceAll(r -> Matcher.quoteReplacement(
                                PACKAGE_PATH + "/" + names.get(r.group(1)))));
                    }
                    case 7, 8, 16, 19, 20 -> out.writeShort(in.readUnsignedShort());
                    case 15 -> {
                        out.writeByte(in.readUnsignedByte());
                        out.writeShort(in.readUnsignedShort());
                    }
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> out.writeInt(in.readInt());
                    case 5, 6 -> {                              // Long, Double: two entries
                        out.writeLong(in.readLong());
                        i++;
                    }
                    default -> throw new AssertionError("constant pool tag " + tag);
                }
            }
            in.transferTo(out);
            out.flush();
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Defines {@code bytes}, after its superclass and interfaces if they are in {@code group}. */
    private static void define(byte[] bytes, Map<String, byte[]> group, Map<String, Class<?>> defined) {
        ClassHeader h = ClassHeader.of(bytes);
        if (defined.containsKey(h.name)) {
            return;
        }
        for (String s : h.supertypes) {
            for (byte[] other : group.values()) {
                if (ClassHeader.of(other).name.equals(s)) {
                    define(other, group, defined);
                }
            }
        }
        try {
            defined.put(h.name, MethodHandles.lookup().defineClass(bytes));
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    /** A class file's own name and the names of its superclass and interfaces (binary names). */
    private record ClassHeader(String name, List<String> supertypes) {

        static ClassHeader of(byte[] bytes) {
            try {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
                in.readInt();
                in.readInt();
                int count = in.readUnsignedShort();
                String[] utf8 = new String[count];
                int[] classNames = new int[count];
                for (int i = 1; i < count; i++) {
                    int tag = in.readUnsignedByte();
                    switch (tag) {
                        case 1 -> utf8[i] = in.readUTF();
                        case 7 -> classNames[i] = in.readUnsignedShort();
                        case 8, 16, 19, 20 -> in.readUnsignedShort();
                        case 15 -> in.skipNBytes(3);
                        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.readInt();
                        case 5, 6 -> {
                            in.readLong();
                            i++;
                        }
                        default -> throw new AssertionError("constant pool tag " + tag);
                    }
                }
                in.readUnsignedShort();                        // access flags
                String name = utf8[classNames[in.readUnsignedShort()]];
                List<String> supertypes = new ArrayList<>();
                int superClass = in.readUnsignedShort();
                if (superClass != 0) {
                    supertypes.add(utf8[classNames[superClass]].replace('/', '.'));
                }
                for (int n = in.readUnsignedShort(); n > 0; n--) {
                    supertypes.add(utf8[classNames[in.readUnsignedShort()]].replace('/', '.'));
                }
                return new ClassHeader(name.replace('/', '.'), supertypes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
