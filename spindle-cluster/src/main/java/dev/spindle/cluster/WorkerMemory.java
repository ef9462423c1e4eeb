/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import dev.spindle.cluster.internal.OwnFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A worker's memory limit and where it spills, the same settings a {@link LocalCluster} worker
 * has ({@link LocalCluster.Builder#memoryLimitPerWorker}): above 60 % of the limit in memory the
 * worker writes its least recently used values to disk and reads them back when needed; above
 * 80 % it starts no new task until memory falls (Dask's target and pause fractions). Spill files
 * live in a directory of their own, created on the first spill under {@code spillParent}
 * ({@code java.io.tmpdir} when null) with owner-only permissions where the file system has POSIX
 * permissions, and deleted when the worker stops. A transport's {@code WorkerMain} reads it from
 * {@code --memory-limit} and {@code --spill-dir} ({@link WorkerCommandLine#memory()}).
 *
 * <p>The spill directory is the worker's own, but whoever may write in its parent can move it
 * aside and put one of theirs in its place, which a spill racing the swap writes a task's value
 * into: so a {@code spillParent} that anyone may write in, or below a directory that anyone may
 * write in, is refused unless that directory is sticky ({@code /tmp}, where only an entry's owner
 * may rename it), and so is one that is, or is below, a directory of another user's than this
 * process's and root (its owner may rename anything in it), by the rule the launcher's
 * {@code --spill-dir} is checked by ({@link OwnFiles}). It is checked again where the spill directory is made, at the first spill (and again should
 * the directory be gone), since it may have been opened to anyone meanwhile, or, a link, pointed
 * elsewhere; the directory is then made in the real directory checked. The default,
 * {@code java.io.tmpdir}, is checked by the same rule there only (a worker that never spills
 * reads nothing of the file system). Refused there, the spill fails as on a disk that refuses
 * it, with a warning naming the parent; the values stay in memory, and a paused worker counts
 * as stalled.
 *
 * @param limitBytes the limit in bytes; 0 for none (nothing spills, the worker never pauses)
 * @param spillParent the directory under which the spill directory is made, or {@code null}
 */
public record WorkerMemory(long limitBytes, Path spillParent) {

    /** No limit: nothing spills. */
    public static final WorkerMemory NONE = new WorkerMemory(0, null);

    /**
     * Checks the limit.
     *
     * @param limitBytes the limit in bytes; 0 for none
     * @param spillParent the directory under which the spill directory is made, or {@code null} for
     *     {@code java.io.tmpdir} (checked at the first spill: see above)
     * @throws IllegalArgumentException if {@code limitBytes} is negative, or anyone may write in
     *         {@code spillParent} or in a directory above it that is not sticky, or it or a
     *         directory above it belongs to another user than this process's and root (a
     *         directory that cannot be looked at, one that does not exist included, is let be:
     *         the first spill reports it)
     */
    public WorkerMemory {
        if (limitBytes < 0) {
            throw new IllegalArgumentException("memory limit must not be negative, got " + limitBytes);
        }
        String refused = spillParent == null ? null : refusalAt(spillParent);
        if (refused != null) {
            throw new IllegalArgumentException("spill directory parent " + spillParent + ": " + refused);
        }
    }

    /**
     * Why a spill directory may not be made under {@code dir}, and what to do, for a refusal's
     * message; {@code null} if it may. Refused: a directory, from {@code dir} itself up to the
     * root, that anyone may write in and that is not sticky ({@link OwnFiles#openDirectory}), or
     * that belongs to another user than this process's and root ({@link OwnFiles#othersDirectory}).
     * {@code null} too where the file system has no unix view to tell, or {@code dir} cannot be
     * looked at (reported by what reads or writes there). The launcher's {@code --spill-dir} is
     * checked by it too, and the store where it makes the directory.
     */
    static String refusalAt(Path dir) {
        try {
            return refusalAtReal(dir.toRealPath());
        } catch (IOException cannotLook) {
            return null;
        }
    }

    /** {@link #refusalAt} of a real path (links resolved). */
    static String refusalAtReal(Path real) throws IOException {
        Path open = OwnFiles.openDirectory(real);
        if (open != null) {
            return "anyone may write in " + open + " (not sticky), and move the worker's spill directory aside for one"
                    + " of their own: choose another, or make it sticky (chmod +t)";
        }
        Path theirs = OwnFiles.othersDirectory(real);
        if (theirs != null) {
            return theirs + " belongs to " + Files.getOwner(theirs).getName() + ", who may move the worker's spill"
                    + " directory aside for one of their own: choose another";
        }
        return null;
    }
}
