/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.testkit;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * For layout tests in every module (the core's test-jar): where the JVM that runs the test put a
 * class's fields, and whether the groups of fields that different threads write sit on different
 * cache lines.
 *
 * <p>Why tests: the padded classes (a queue's two ends, a worker's per-task fields, an actor
 * cell's mailbox ends) separate their groups by class hierarchy, padding classes between, because
 * HotSpot lays out a superclass's fields before a subclass's. But it also fills a hole that a
 * superclass's fields left (4 bytes before a long, say) with a subclass's fields, so a field added
 * to one group can move a field of another group next to it without a word in the diff: in
 * session 77 an int added to the actor cell's read-mostly fields put the consumer's {@code head}
 * 4 bytes from the senders' {@code tail}, and only a benchmark noticed (tell-only at about 0.74).
 * Layouts differ between JDKs and with compressed references, so the tests assert distances,
 * never offsets.
 *
 * <p>Two fields are on different cache lines, wherever the object lies, only if their offsets are
 * at least {@link #CACHE_LINE} bytes apart: objects are 8-byte aligned, not line aligned, and a
 * field of at most 8 bytes never straddles a line.
 */
public final class FieldLayout {

    /** The cache line of the processors Spindle targets (x86-64, most AArch64), in bytes. */
    public static final int CACHE_LINE = 64;

    /** A field, or a neighbouring object, at an offset. */
    private record Place(String name, long offset) {
        @Override
        public String toString() {
            return name + " " + offset;
        }
    }

    private final Class<?> type;
    private final Map<String, List<Place>> groups = new LinkedHashMap<>();
    private final List<String> paddedGroups = new ArrayList<>();

    private FieldLayout(Class<?> type) {
        this.type = type;
    }

    /**
     * The offset of instance field {@code name}, declared by {@code type} or one of its
     * superclasses, in the JVM running the test.
     */
    public static long offset(Class<?> type, String name) {
        return offset(field(type, name));
    }

    /** Starts a layout check of {@code type}, the class whose instances exist (its own fields count). */
    public static FieldLayout of(Class<?> type) {
        return new FieldLayout(type);
    }

    /**
     * Adds a group: fields written together (by one thread, or one kind of thread), which may share
     * lines with each other but with no field of another group. Each is declared by the checked
     * class or a superclass.
     */
    public FieldLayout group(String name, String... fields) {
        if (fields.length == 0) {
            throw new IllegalArgumentException("group " + name + " names no field");
        }
        List<Place> places = new ArrayList<>();
        for (String f : fields) {
            places.add(place(field(type, f)));
        }
        return add(name, places);
    }

    /**
     * Adds a group of every instance field the named classes declare, each the checked class or
     * one of its superclasses, by simple name (the field groups are auxiliary classes in another
     * class's source file, which javac warns against naming outside it). The group is named by
     * the names joined with {@code +}. A field added to one of the classes
     * later is checked too, which a list of field names would miss.
     */
    public FieldLayout groupDeclaredIn(String... classes) {
        if (classes.length == 0) {
            throw new IllegalArgumentException("no class named");
        }
        List<Place> places = new ArrayList<>();
        for (String name : classes) {
            for (Field f : inHierarchy(name).getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    places.add(place(f));
                }
            }
        }
        if (places.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", classes) + " declare no instance field");
        }
        return add(String.join("+", classes), places);
    }

    /**
     * Asks that the fields of the named groups be a line away from the neighbouring objects too:
     * from the object's own start (its header, with the object before it just below), offset 0,
     * and from the object after it, at the instance size (the end of the last field, aligned to
     * 8). For a class whose padding keeps a group off the lines of whatever the allocator put
     * beside it.
     */
    public FieldLayout awayFromNeighbours(String... groupNames) {
        for (String g : groupNames) {
            if (!groups.containsKey(g)) {
                throw new IllegalArgumentException("no group " + g + " among " + groups.keySet());
            }
            paddedGroups.add(g);
        }
        return this;
    }

    /**
     * Fails if a field of one group is less than {@link #CACHE_LINE} bytes from a field of another
     * group, or a field of a group kept {@linkplain #awayFromNeighbours away from neighbours} is
     * that near a neighbouring object; the message names the nearest such pair of each two groups
     * and every group's offsets.
     */
    public void assertGroupsApart() {
        if (groups.size() < 2) {
            throw new IllegalStateException("a layout check needs two groups at least");
        }
        List<String> names = new ArrayList<>(groups.keySet());
        List<String> close = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            for (int j = i + 1; j < names.size(); j++) {
                near(names.get(i), names.get(j), groups.get(names.get(j)), close);
            }
        }
        List<Place> neighbours = neighbours();
        for (String g : paddedGroups) {
            near(g, "neighbours", neighbours, close);
        }
        if (!close.isEmpty()) {
            throw new AssertionError(type.getSimpleName() + ": fields that may share a cache line: "
                    + String.join("; ", close) + ". Offsets: " + describe()
                    + (paddedGroups.isEmpty() ? "" : ", neighbours " + neighbours));
        }
    }

    /**
     * Adds to {@code close} the nearest pair of a field of group {@code g} and a place of
     * {@code other} if it is under a line apart, with how many pairs are.
     */
    private void near(String g, String otherName, List<Place> other, List<String> close) {
        Place nearA = null;
        Place nearB = null;
        int pairs = 0;
        for (Place a : groups.get(g)) {
            for (Place b : other) {
                long distance = Math.abs(a.offset() - b.offset());
                if (distance < CACHE_LINE) {
                    pairs++;
                    if (nearA == null || distance < Math.abs(nearA.offset() - nearB.offset())) {
                        nearA = a;
                        nearB = b;
                    }
                }
            }
        }
        if (pairs > 0) {
            long distance = Math.abs(nearA.offset() - nearB.offset());
            close.add(g + "." + nearA.name() + " at " + nearA.offset() + " and " + otherName + "." + nearB.name()
                    + " at " + nearB.offset() + ", " + distance + (distance == 1 ? " byte" : " bytes") + " apart"
                    + (pairs > 1 ? " (" + pairs + " pairs under " + CACHE_LINE + ")" : ""));
        }
    }

    /** The object's start and the next object's, as offsets. */
    private List<Place> neighbours() {
        long end = 0;
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    end = Math.max(end, offset(f) + size(f.getType()));
                }
            }
        }
        return List.of(new Place("objectStart", 0), new Place("nextObject", (end + 7) & ~7L));
    }

    /** Every group with its places' offsets, in offset order: for a failure's message. */
    private String describe() {
        List<String> parts = new ArrayList<>();
        groups.forEach((name, places) -> {
            List<Place> sorted = new ArrayList<>(places);
            sorted.sort(Comparator.comparingLong(Place::offset));
            parts.add(name + " " + sorted);
        });
        return String.join(", ", parts);
    }

    private FieldLayout add(String name, List<Place> places) {
        if (groups.putIfAbsent(name, places) != null) {
            throw new IllegalArgumentException("two groups named " + name);
        }
        return this;
    }

    private Class<?> inHierarchy(String simpleName) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getSimpleName().equals(simpleName)) {
                return c;
            }
        }
        throw new IllegalArgumentException(simpleName + " is not " + type.getName() + " nor one of its superclasses");
    }

    private static Place place(Field f) {
        return new Place(f.getName(), offset(f));
    }

    private static Field field(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                if (!Modifier.isStatic(f.getModifiers())) {
                    return f;
                }
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new IllegalArgumentException("no instance field " + name + " in " + type.getName() + " or its superclasses");
    }

    /** A field's size in bytes; a reference's as the JVM running the test stores it (compressed or not). */
    private static int size(Class<?> t) {
        if (!t.isPrimitive()) {
            return Jvm.call("arrayIndexScale", Class.class, Object[].class);
        }
        if (t == long.class || t == double.class) {
            return 8;
        }
        if (t == int.class || t == float.class) {
            return 4;
        }
        return t == short.class || t == char.class ? 2 : 1;
    }

    private static long offset(Field f) {
        return Jvm.call("objectFieldOffset", Field.class, f);
    }

    /**
     * {@code sun.misc.Unsafe}, found by reflection: the modules do not read {@code jdk.unsupported},
     * which holds it, and reflection needs no command-line option in every module's test run.
     * From JDK 24 on, its first use prints a warning that the method is deprecated for removal.
     */
    private static final class Jvm {

        private static final Object UNSAFE;

        static {
            try {
                Field theUnsafe = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
                theUnsafe.setAccessible(true);
                UNSAFE = theUnsafe.get(null);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @SuppressWarnings("unchecked")
        static <R> R call(String method, Class<?> parameter, Object argument) {
            try {
                Method m = UNSAFE.getClass().getMethod(method, parameter);
                return (R) m.invoke(UNSAFE, argument);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("sun.misc.Unsafe." + method + "(" + argument + ")", e);
            }
        }
    }
}
