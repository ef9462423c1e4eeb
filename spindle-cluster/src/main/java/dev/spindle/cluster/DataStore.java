/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * A worker's values by key, with the sum of their measured sizes (each counted at most
 * {@link #MAX_COUNTED_BYTES}, so that the sums stay within {@code long}), spilling to disk above a
 * memory limit as Dask's workers do. Thread-safe (one lock; every operation is short except a
 * spill or read-back, which is the point of having a limit).
 *
 * <h2>Spilling</h2>
 *
 * <p>Without a limit every value stays in memory. With a limit {@code L}: when the bytes in
 * memory exceed {@link #TARGET}{@code × L} after a put or a read-back, least recently used values
 * are written to files until they are back at or below it (Dask's "target" fraction, 60 %); a
 * value over the target by itself goes to disk as soon as it is stored, before any other (which
 * stay in memory if they are at or below the target without it), and stays there. A
 * spilled value is read back, and counts in memory again, when it is next asked for. Values that
 * are {@link Sized} but not serialisable cannot spill and stay in memory; so do values that Java
 * serialisation writes but cannot read back (a serialisable class whose first non-serialisable
 * superclass has no no-argument constructor, a {@code readObject} that throws): a value whose
 * stream names a class of an application (not of the JDK) that no file of this store was read
 * back with yet is read back as soon as it is written, and stays in memory for good if that
 * fails for the value itself (an I/O error of the disk under that read is the disk refusing the
 * spill, which a later spill tries again, as below). Spilled, it would be lost at its next read, and an in-process worker, which reads a value
 * back only after a spill, would compute it again and lose it again, for good. Above
 * {@link #PAUSE}{@code × L} in memory (possible only with values that cannot spill), the store
 * reports {@link #paused()} and the worker starts no new task until it falls (Dask's "pause"
 * fraction, 80 %); a paused store with only such values in memory is {@link #stuck()}, and a
 * worker so stuck with no task running tells the scheduler, which moves the tasks queued there to
 * a worker that can run them, or fails those no worker can ever start. A value the disk refused to
 * take (the spill directory cannot be made or written) counts as one that cannot spill until a
 * later attempt succeeds: each look at {@link #stuck()} tries again. Dask's third fraction,
 * "spill" at 70 % of the process memory, measures the whole process; a store sees only its own
 * values, so the target alone drives spilling here.
 *
 * <p>Files live in a directory only the current user can read ({@code rwx------} where POSIX
 * permissions exist), created on first spill (under the given parent, else {@code java.io.tmpdir},
 * either checked again there, in the real directory it is made in, and refused as the disk's
 * failure if anyone may write there and it is not sticky: see {@link #checkedParent}),
 * again by a spill that finds it gone (a temporary-file cleaner removes a long-idle one), and
 * deleted by {@link #clear()}. A file is read back only if it still has the length written,
 * and through a filter that bounds the stream to that length and every array's declared length
 * by it, so a file changed on disk cannot make the reader allocate more than was spilled; and
 * what it read is taken for the value only if the file's bytes still have the CRC-32C they were
 * written with (else a change that kept the length read back as a wrong value): a changed file
 * is a lost copy, as an unreadable one is (see {@link #get}). Its classes are resolved to the
 * very classes that were written (recorded at spill time), not by name through whatever loader
 * the reading thread's stack finds: a value of a class that an application or plugin loader
 * defined comes back as that class. A file that names any other class is refused before it is
 * loaded (a stream of someone else's making, put in the file's place, would otherwise have any
 * serialisable class of the class path read, its {@code readObject} run, before the checksum
 * could tell).
 */
final class DataStore {

    /** Spill least recently used values above this fraction of the limit. */
    static final double TARGET = 0.6;
    /** Start no new task above this fraction of the limit in memory. */
    static final double PAUSE = 0.8;

    /**
     * A value in memory ({@code file == null}) or on disk, in a file of {@code fileBytes} bytes
     * whose CRC-32C was {@code checksum} as written and whose classes by name are {@code classes};
     * {@code pinned} once writing it, or reading it back, failed because of the value itself (a
     * field that is not serialisable, a superclass without a no-argument constructor), so that it
     * is not tried again.
     */
    private record Entry(Object value, long bytes, Path file, long fileBytes, long checksum,
                         Map<String, Class<?>> classes, boolean pinned) {
        Entry(Object value, long bytes) {
            this(value, bytes, null, 0, 0, null, false);
        }
    }

    /** A spilled value's file, its CRC-32C as written, and the classes its stream names. */
    private record Spilled(Path file, long checksum, Map<String, Class<?>> classes) {
    }

    private final long limit;
    private final Path spillParent;
    /**
     * Access order: the eldest entry is the least recently used. Replaced, empty, by {@link #clear}
     * (as is {@link #readable}): a stopped worker stays referenced, and a hash table keeps the size
     * of its fullest moment.
     */
    private LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long memoryBytes;
    private long spilledBytes;
    private long spills;
    private Path directory;
    /** The {@link BasicFileAttributes#fileKey} of {@link #directory} when it was made; null where there is none. */
    private Object directoryKey;
    private long fileSeq;
    /** Set by {@link #clear()}: the worker stopped, and a late put (a task that was still running) is dropped. */
    private boolean closed;
    /** Why the disk refused the last spill tried, or null if that one succeeded (or none was tried). */
    private String refused;
    /** The application classes that a spilled stream was read back with (see {@link #readBack}). */
    private Set<Class<?>> readable = new HashSet<>();

    /** A store without a memory limit: nothing spills. */
    DataStore() {
        this(0);
    }

    /** @param limit the memory limit in bytes; 0 for none */
    DataStore(long limit) {
        this(new WorkerMemory(limit, null));
    }

    /** A store with {@code memory}'s limit, spilling under its parent directory. */
    DataStore(WorkerMemory memory) {
        this.limit = memory.limitBytes();
        this.spillParent = memory.spillParent();
    }

    /**
     * The most bytes one value counts for here, 128 TiB: far over any memory limit, and low enough
     * that the sums of 65,536 such values stay within {@code long}. A {@link Sized} value may
     * declare up to {@code Long.MAX_VALUE}; counted as declared, two of more than half that
     * wrapped {@link #memoryBytes} negative, and the store, seeing less than nothing in memory,
     * neither spilled nor paused, and a worker in another JVM reported a figure the coordinator's
     * codec refuses, with the whole frame the report travelled in.
     */
    static final long MAX_COUNTED_BYTES = 1L << 47;

    /**
     * Stores a value; a second copy of the same key replaces the first and is counted once.
     *
     * <p>Once {@link #clear} ran, the value is dropped: its worker stopped, and a task end or a
     * fetch completion that looked at the worker just before the stop stores after the clear; kept,
     * the value (and any file it spilled to) would stay with the gone worker for good. Nobody
     * waits for it there: the scheduler takes the stopped worker's values for lost and computes or
     * fetches them elsewhere, and the report sent with the dropped value is either dropped with the
     * gone worker (the in-process transport delivers nothing from it) or handled before its loss,
     * which then uncounts the copy.
     */
    synchronized void put(String key, Object value, long size) {
        if (closed) {
            return;                           // stopped: nothing would ever delete what it spilled
        }
        size = Math.min(size, MAX_COUNTED_BYTES);
        drop(entries.put(key, new Entry(value, size)));
        memoryBytes += size;
        spillIfNeeded(key);
    }

    synchronized boolean contains(String key) {
        return entries.containsKey(key);
    }

    /**
     * The value, read back from disk if it was spilled; throws if absent, because callers check
     * {@link #contains} or hold the key. A spilled value that cannot be read back (its file deleted,
     * damaged or unreadable) is lost: it is dropped, no longer held nor counted, with a warning,
     * and this throws as for an absent one, so that the worker answers "not held" and the
     * scheduler computes it again.
     *
     * @throws IllegalStateException if there is no value for {@code key}; {@link Lost} if it was
     *     just lost so
     */
    synchronized Object get(String key) {
        Entry e = entries.get(key);
        if (e == null) {
            throw new IllegalStateException("no value for key '" + key + "'");
        }
        if (e.file() == null) {
            return e.value();
        }
        Object value;
        try {
            value = read(e.file(), e.fileBytes(), e.checksum(), e.classes());
        } catch (RuntimeException | Error unreadable) {
            // the copy is gone for good (a retry reads the same file): kept, it would stay counted
            // in spilledBytes and held by contains, every fetch of it would fail the same way (an
            // UncheckedIOException escaping a transport's fetch handler, the requester waiting out
            // its timeout), and no one would compute it again. An Error too (the value's own
            // readObject may throw one): escaping, it left a task reading its input here unreported
            drop(entries.remove(key));
            System.getLogger(DataStore.class.getName()).log(System.Logger.Level.WARNING,
                    "the spilled value of ''{0}'' cannot be read back and is dropped: {1}",
                    LogText.printable(key, LogText.MAX_KEY),
                    LogText.printable(Failures.describe(unreadable), LogText.MAX_DETAIL));
            throw new Lost("the spilled value of '" + key + "' is lost: " + Failures.messageOf(unreadable),
                    unreadable);
        }
        if (e.bytes() > TARGET * limit) {
            return value;                     // over the target by itself: it stays on disk (see spillIfNeeded)
        }
        deleteQuietly(e.file());
        spilledBytes -= e.bytes();
        memoryBytes += e.bytes();
        entries.put(key, new Entry(value, e.bytes(), null, 0, 0, null, e.pinned()));
        spillIfNeeded(key);
        return value;
    }

    /** The size of the value, or -1 if absent. */
    synchronized long size(String key) {
        Entry e = entries.get(key);
        return e == null ? -1 : e.bytes();
    }

    synchronized void remove(String key) {
        drop(entries.remove(key));
    }

    /** Bytes of the values in memory. */
    synchronized long memoryBytes() {
        return memoryBytes;
    }

    /** Bytes of the values spilled to disk. */
    synchronized long spilledBytes() {
        return spilledBytes;
    }

    /** How many times a value was written to disk. */
    synchronized long spills() {
        return spills;
    }

    /** Whether the values in memory exceed the pause fraction of the limit. */
    synchronized boolean paused() {
        return limit > 0 && memoryBytes > PAUSE * limit;
    }

    /**
     * Whether the store is paused with nothing it could spill: every value in memory is one that
     * cannot be written, or the disk refused the one it tried to write. It first spills down to the
     * target what {@link #put} and {@link #get} keep in memory for the task that uses them (the
     * value just stored or read back): the worker asks only when it has no task running, and kept
     * there that value would hold the store paused for good. A value the disk refused counts as one
     * that cannot spill (else a worker whose spill directory cannot be made or written would hold
     * its tasks for good, never paused by values that cannot spill); but only for this call: the
     * next one tries the disk again, and once it takes the values the store is not stuck.
     */
    synchronized boolean stuck() {
        if (!paused()) {
            return false;
        }
        spillIfNeeded(null);                  // keeps nothing; stops at the first value the disk refuses
        if (!paused()) {
            return false;
        }
        if (refused != null) {
            // the disk refused the value it just tried (were none tried, none could spill): a
            // value that could spill is left only when the spill it was tried in failed
            return true;
        }
        for (Entry e : entries.values()) {
            if (spillable(e)) {
                return false;
            }
        }
        return true;
    }

    /** The memory limit in bytes; 0 for none. */
    long limit() {
        return limit;
    }

    /** For tests: the map of the values held, the very object. */
    synchronized Object tablesForTests() {
        return entries;
    }

    synchronized int keys() {
        return entries.size();
    }

    /** Drops every value and deletes the spill files; the store keeps nothing put after it. */
    synchronized void clear() {
        closed = true;
        for (Entry e : entries.values()) {
            if (e.file() != null) {
                deleteQuietly(e.file());
            }
        }
        entries = new LinkedHashMap<>(16, 0.75f, true);
        readable = new HashSet<>();           // a stopped worker stays referenced: its classes' loaders need not
        memoryBytes = 0;
        spilledBytes = 0;
        if (directory != null) {
            deleteQuietly(directory);
            directory = null;
            directoryKey = null;
        }
    }

    private void drop(Entry old) {
        if (old == null) {
            return;
        }
        if (old.file() == null) {
            memoryBytes -= old.bytes();
        } else {
            spilledBytes -= old.bytes();
            deleteQuietly(old.file());
        }
    }

    /** Spills least recently used values, never {@code keep} (just stored or asked for; null for none). */
    private void spillIfNeeded(String keep) {
        if (limit == 0 || memoryBytes <= TARGET * limit) {
            return;
        }
        Entry kept = keep == null ? null : entries.get(keep);
        if (kept != null && spillable(kept) && kept.bytes() > TARGET * limit) {
            // over the target by itself: kept in memory it would hold the store over the target
            // for as long as it lives, and over the pause fraction stop the worker for good (the
            // task that needs it could never start), so it goes to disk at once, as in Dask; and
            // first, as Dask's buffer writes it straight to disk: the values already in memory,
            // under the target without it, are not written out for nothing
            Entry after = spill(keep, kept);
            if (after == null) {
                return;                       // the disk: it stays in memory, as in the loop below
            }
            entries.put(keep, after);         // on disk, or pinned: then the others spill below
        }
        Iterator<Map.Entry<String, Entry>> it = entries.entrySet().iterator();
        while (memoryBytes > TARGET * limit && it.hasNext()) {
            Map.Entry<String, Entry> me = it.next();
            Entry e = me.getValue();
            if (!spillable(e) || me.getKey().equals(keep)) {
                continue;
            }
            Entry after = spill(me.getKey(), e);
            if (after == null) {
                return;                       // the disk: keep it in memory; the pause fraction still protects the worker
            }
            me.setValue(after);               // setValue does not count as an access
        }
    }

    private static boolean spillable(Entry e) {
        return e.file() == null && !e.pinned() && e.value() instanceof Serializable;
    }

    /**
     * Writes {@code e}'s value, held under {@code key}, to disk and counts it there: the entry on
     * disk, {@code e} pinned if the value itself cannot be written (it stays in memory for good), or
     * null if the disk failed (noted in {@link #refused} until a spill succeeds).
     */
    private Entry spill(String key, Entry e) {
        Spilled spilled;
        try {
            spilled = write(e.value());
        } catch (UncheckedIOException diskFailed) {
            return diskRefused(diskFailed.getCause());
        } catch (NotWritable failed) {
            // the value itself cannot be written (a field not serialisable, its own writeObject
            // threw, an IOException included, or its depth overflowed the stack): it stays in
            // memory for good, the next least recently used value spills instead, and the put or
            // read that spilled goes on. Its failure is described by Failures, not printed: an
            // exception of the value's own whose toString() throws escaped the put (on a worker,
            // the put of a task's result: the task never reported), as in readBack and get
            System.getLogger(DataStore.class.getName()).log(System.Logger.Level.WARNING,
                    "the value of ''{0}'' ({1}) cannot spill, writing it failed: {2}; it stays in memory",
                    LogText.printable(key, LogText.MAX_KEY), e.value().getClass().getName(),
                    LogText.printable(Failures.describe(failed.getCause()), LogText.MAX_DETAIL));
            return new Entry(e.value(), e.bytes(), null, 0, 0, null, true);
        }
        Path file = spilled.file();
        long fileBytes;
        try {
            fileBytes = Files.size(file);
        } catch (IOException diskFailed) {
            deleteQuietly(file);
            return diskRefused(diskFailed);
        }
        boolean readable;
        try {
            readable = readBack(key, e, file, fileBytes, spilled.checksum(), spilled.classes());
        } catch (UncheckedIOException diskFailed) {
            // the disk failed under the read, not the value: as a failed write to it, the value
            // stays in memory without being pinned, and a later spill tries it again
            deleteQuietly(file);
            return diskRefused(diskFailed.getCause());
        }
        if (!readable) {
            deleteQuietly(file);
            return new Entry(e.value(), e.bytes(), null, 0, 0, null, true);
        }
        if (refused != null) {
            refused = null;
            System.getLogger(DataStore.class.getName()).log(System.Logger.Level.INFO,
                    "spilling to {0} works again", directory);
        }
        memoryBytes -= e.bytes();
        spilledBytes += e.bytes();
        spills++;
        return new Entry(null, e.bytes(), file, fileBytes, spilled.checksum(), spilled.classes(), false);
    }

    /**
     * Whether {@code e}'s value, just written to {@code file}, can be read back: read back at once
     * if its stream names an application class that no stream of this store was read back with yet
     * (writing succeeds where reading fails for a class, a serialisable one whose first
     * non-serialisable superclass has no no-argument constructor above all: spilled, such a value
     * would be lost at its next read). Else, with a warning, it is to stay in memory for good, as a
     * value that cannot be written does. Classes of the JDK are taken as readable: a large array
     * is not read back for nothing.
     *
     * @throws UncheckedIOException if the disk failed under the read (see {@link #read}): nothing
     *     is known of the value then, and pinned for that it would never spill again
     */
    private boolean readBack(String key, Entry e, Path file, long fileBytes, long checksum,
                             Map<String, Class<?>> classes) {
        boolean known = true;
        for (Class<?> c : classes.values()) {
            known &= jdk(c) || readable.contains(c);
        }
        if (known) {
            return true;
        }
        try {
            read(file, fileBytes, checksum, classes);
        } catch (UncheckedIOException diskFailed) {
            throw diskFailed;                 // the disk's failure, not the value's (see read)
        } catch (RuntimeException | Error unreadable) {
            // an Error too (its own readObject's, a stack overflowed): escaping, it failed the put
            // that spilled, and on a worker the put of a task's result, which never reported
            System.getLogger(DataStore.class.getName()).log(System.Logger.Level.WARNING,
                    "the value of ''{0}'' ({1}) cannot spill, reading it back failed: {2}; it stays in memory",
                    LogText.printable(key, LogText.MAX_KEY), e.value().getClass().getName(),
                    LogText.printable(Failures.describe(unreadable), LogText.MAX_DETAIL));
            return false;
        }
        for (Class<?> c : classes.values()) {
            if (!jdk(c)) {
                readable.add(c);
            }
        }
        return true;
    }

    /** Whether {@code c} (or an array's element class) is the JDK's own. */
    private static boolean jdk(Class<?> c) {
        while (c.isArray()) {
            c = c.getComponentType();
        }
        ClassLoader loader = c.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    /** Notes that the disk refused a spill, with a warning the first time in a row; returns null. */
    private Entry diskRefused(Throwable why) {
        boolean first = refused == null;
        refused = String.valueOf(why);
        if (first) {
            System.getLogger(DataStore.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot spill under {0}: {1}; values that would spill stay in memory, and once paused over"
                            + " the memory limit with no task running the worker counts as stalled until a spill"
                            + " succeeds", spillParent != null ? spillParent : System.getProperty("java.io.tmpdir"),
                    refused);
        }
        return null;
    }

    /** Thrown by {@link #write} when the value's serialisation failed, not the disk; the cause says why. */
    private static final class NotWritable extends RuntimeException {
        NotWritable(Throwable cause) {
            super(null, cause, false, false);
        }
    }

    /**
     * Notes whether an {@link IOException} passed through a spill file's stream ({@link DiskStream},
     * {@link DiskInput}): one out of {@code writeObject} or {@code readObject} is the disk's only if
     * it did, else it is the value's own (its {@code writeObject} or {@code readObject} threw it, a
     * class without a usable constructor).
     */
    private static final class DiskWatch {
        boolean failed;

        interface Io<T> {
            T call() throws IOException;
        }

        <T> T noting(Io<T> io) throws IOException {
            try {
                return io.call();
            } catch (IOException e) {
                failed = true;
                throw e;
            }
        }
    }

    /** A spill file's stream when writing, watched ({@link DiskWatch}). */
    private static final class DiskStream extends OutputStream {
        private final OutputStream out;
        final DiskWatch watch = new DiskWatch();

        DiskStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(int b) throws IOException {
            watch.noting(() -> {
                out.write(b);
                return null;
            });
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            watch.noting(() -> {
                out.write(b, off, len);
                return null;
            });
        }

        @Override
        public void flush() throws IOException {
            watch.noting(() -> {
                out.flush();
                return null;
            });
        }

        @Override
        public void close() throws IOException {
            watch.noting(() -> {
                out.close();
                return null;
            });
        }
    }

    /**
     * Writes {@code value} to a new file.
     *
     * @throws UncheckedIOException if the disk failed (the directory, the file or a write)
     * @throws NotWritable if the value's serialisation failed
     */
    private Spilled write(Object value) {
        try {
            if (directory != null && directoryGone()) {
                // a temporary-file cleaner removed it (its files first, then the emptied directory):
                // every later spill failed on the missing directory, for good, and the worker held
                // its values in memory, paused and stalled, with room on the disk. Made anew
                System.getLogger(DataStore.class.getName()).log(System.Logger.Level.INFO,
                        "the spill directory {0} is gone; spilling to a new one", directory);
                directory = null;
                directoryKey = null;
            }
            if (directory == null) {
                Path parent = checkedParent();
                directory = FileSystems.getDefault().supportedFileAttributeViews().contains("posix")
                        ? Files.createTempDirectory(parent, "spindle-spill-",
                                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")))
                        : Files.createTempDirectory(parent, "spindle-spill-");
                try {
                    directoryKey = Files.readAttributes(directory, BasicFileAttributes.class,
                            LinkOption.NOFOLLOW_LINKS).fileKey();
                } catch (IOException e) {
                    deleteQuietly(directory);
                    directory = null;
                    throw e;
                }
            }
            Path file = directory.resolve("v" + (++fileSeq));
            Map<String, Class<?>> classes = new HashMap<>();
            DiskStream disk = new DiskStream(new BufferedOutputStream(Files.newOutputStream(file)));
            CRC32C crc = new CRC32C();        // of every byte written: see read
            try (disk;
                 ObjectOutputStream out = new ObjectOutputStream(new CheckedOutputStream(disk, crc)) {
                     @Override
                     protected void annotateClass(Class<?> c) {
                         classes.put(c.getName(), c);     // every class descriptor the stream writes
                     }

                     @Override
                     protected void annotateProxyClass(Class<?> c) {
                         classes.put(proxyKey(Arrays.stream(c.getInterfaces()).map(Class::getName)
                                 .toArray(String[]::new)), c);
                     }
                 }) {
                out.writeObject(value);
            } catch (IOException | RuntimeException | Error failed) {
                // (an Error too: a long chain of nodes, each writing the next, overflows the stack,
                // and its own writeObject may throw one; the value's failure, which must not escape
                // the put or read that spilled: on a worker, the put of a task's result, which then
                // never reported)
                deleteQuietly(file);          // a partial file would stay until the worker stops, and keep its directory
                if (disk.watch.failed) {
                    throw failed instanceof IOException io ? io : new IOException(Failures.describe(failed), failed);
                }
                throw new NotWritable(failed);
            }
            return new Spilled(file, crc.getValue(), Map.copyOf(classes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill a value to disk", e);
        }
    }

    /**
     * The directory to make the spill directory in: the given parent, else {@code java.io.tmpdir},
     * checked by the rule a given one is checked by when the settings are made ({@link WorkerMemory}):
     * if anyone may write in it, or in a directory above it, and that directory is not sticky, or
     * it or a directory above it belongs to another user than this process's and root, it is
     * refused, as a disk that refuses the spill. Checked here, each time the directory is made:
     * the default's property is read where it is used, and a worker that never spills reads nothing
     * of the file system; a given parent was checked when the settings were made, maybe hours
     * before, and may have been opened to anyone since, or, a link, pointed elsewhere. The real
     * path checked is the one returned, so the directory is made in the very directory checked,
     * not wherever a link on the way names by then (a directory on that path can be renamed only
     * by whoever may write in the one above it, which the check has found to be no other user,
     * or an entry's owner in a sticky one). Taken unchecked, a parent open to all let whoever may
     * write there move the spill directory aside for one of theirs, which a racing spill writes a
     * value into. A parent that cannot be looked at (one that does not exist) is returned as given,
     * for the making to report.
     *
     * @throws IOException if it is refused, saying why and what to do
     */
    private Path checkedParent() throws IOException {
        String tmpdir = spillParent == null ? System.getProperty("java.io.tmpdir") : null;
        Path parent = spillParent != null ? spillParent : Path.of(tmpdir);
        Path real;
        String refused;
        try {
            real = parent.toRealPath();
            refused = WorkerMemory.refusalAtReal(real);
        } catch (IOException cannotLook) {
            return parent;                    // the making fails, and says why
        }
        if (refused == null) {
            return real;
        }
        if (spillParent != null) {
            throw new IOException("spill directory parent " + spillParent + ": " + refused);
        }
        throw new IOException("java.io.tmpdir " + tmpdir + ": " + refused
                + "; or give the worker a spill parent of its own (--spill-dir, or WorkerMemory's spillParent)");
    }

    /**
     * Whether {@link #directory} is no longer the directory this store made: nothing is there, or
     * something else is (not a directory, or another file by its key, made under the same name
     * since). Any other failure to look is left to the write, which reports it as the disk's: the
     * directory may still hold files, which {@link #clear} must delete.
     */
    private boolean directoryGone() {
        BasicFileAttributes now;
        try {
            now = Files.readAttributes(directory, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException gone) {
            return true;
        } catch (IOException unknown) {
            return false;
        }
        return !now.isDirectory() || (directoryKey != null && !directoryKey.equals(now.fileKey()));
    }

    /** A spill file's stream when reading back, watched ({@link DiskWatch}). */
    private static final class DiskInput extends java.io.FilterInputStream {
        final DiskWatch watch = new DiskWatch();

        DiskInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            return watch.noting(super::read);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return watch.noting(() -> super.read(b, off, len));
        }

        @Override
        public long skip(long n) throws IOException {
            return watch.noting(() -> super.skip(n));
        }

        @Override
        public int available() throws IOException {
            return watch.noting(super::available);
        }

        @Override
        public void close() throws IOException {
            watch.noting(() -> {
                super.close();
                return null;
            });
        }
    }

    /** Opens a spilled file for reading; a seam, so that tests can fail the disk as it may. */
    interface Opener {
        InputStream open(Path file) throws IOException;
    }

    private Opener opener = Files::newInputStream;

    /** For tests: reads spilled files through {@code opener}. */
    synchronized void openWith(Opener opener) {
        this.opener = opener;
    }

    /**
     * Reads a spilled value back, bounded by the {@code length} it was written with, resolving
     * its classes to those it was written with.
     *
     * @throws UncheckedIOException if the disk failed (opening the file, its size, a read): the
     *     value itself may be readable, and a retry may succeed
     * @throws IllegalStateException if the value cannot be read back from its file (its class,
     *     its own {@code readObject}, or the file changed since it was written: its length, or its
     *     bytes, by their checksum)
     */
    private Object read(Path file, long length, long checksum, Map<String, Class<?>> classes) {
        DiskInput disk;
        try {
            disk = new DiskInput(opener.open(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read back the spilled value in " + file, e);
        }
        CRC32C crc = new CRC32C();
        CheckedInputStream checked = new CheckedInputStream(new BufferedInputStream(disk), crc);
        try (checked;
             ObjectInputStream in = new ObjectInputStream(checked) {
                 @Override
                 protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException {
                     // only the value's own classes: looked up by name, any serialisable class on the
                     // class path was read from a file put in this one's place, its readObject run
                     // before the checksum (taken after the read) could tell the file had changed
                     return written(classes, desc.getName());
                 }

                 @Override
                 protected Class<?> resolveProxyClass(String[] interfaces) throws IOException {
                     return written(classes, proxyKey(interfaces));
                 }
             }) {
            long now;
            try {
                now = Files.size(file);
            } catch (IOException e) {
                disk.watch.failed = true;
                throw e;
            }
            if (now != length) {
                throw new IllegalStateException("cannot read back the spilled value in " + file + ": it has " + now
                        + " bytes, " + length + " were written");
            }
            in.setObjectInputFilter(ObjectInputFilter.Config.createFilter(
                    "maxbytes=" + length + ";maxarray=" + length + ";maxrefs=" + length));
            Object value = in.readObject();
            // a file changed in place (a damaged sector, another process of the user writing into
            // it) keeps its length, and a change inside the value's data (an array's elements, a
            // string's characters) read back as a valid value, a wrong one, with no error anywhere
            checked.skip(Long.MAX_VALUE);     // what the object stream left unread (its skip reads and sums it)
            if (crc.getValue() != checksum) {
                throw new IllegalStateException("cannot read back the spilled value in " + file
                        + ": its bytes changed since they were written (their checksum differs)");
            }
            return value;
        } catch (IOException e) {
            if (disk.watch.failed) {
                throw new UncheckedIOException("cannot read back the spilled value in " + file, e);
            }
            // the value's own failure (InvalidClassException for a class without a usable
            // constructor, an IOException its readObject threw): not the disk's, retrying cannot help
            throw new IllegalStateException("cannot read back the spilled value in " + file + ": " + Failures.describe(e), e);
        } catch (UncheckedIOException e) {
            if (disk.watch.failed) {
                throw e;
            }
            throw new IllegalStateException("cannot read back the spilled value in " + file + ": " + Failures.describe(e), e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("cannot read back the spilled value in " + file, e);
        }
    }

    /** The key under which a spill records a proxy class: its interfaces' names, in order. */
    private static String proxyKey(String[] interfaces) {
        return "proxy " + String.join(",", interfaces);
    }

    /** The class recorded under {@code key} when the value was spilled; refused if it had none such. */
    private static Class<?> written(Map<String, Class<?>> classes, String key) throws InvalidClassException {
        Class<?> c = classes.get(key);
        if (c == null) {
            throw new InvalidClassException(key, "not a class of the value spilled to this file");
        }
        return c;
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temporary file; the directory is removed when the worker stops
        }
    }

    /**
     * Thrown by {@link #get} for a copy this read found unreadable and dropped: unlike an absent
     * key (released meanwhile, which the scheduler knows of), a loss only this worker knows of, so
     * a reader serving another worker's fetch has it reported ({@link ClusterWorker#copyLost}).
     */
    static final class Lost extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        Lost(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
