/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * Whether another user of this machine could change a file that a cluster member trusts (a
 * secret, a key or trust store, a directory of spilled values), as {@code ssh} asks of its key
 * files: one mechanism for the worker launchers ({@code WorkerCommandLine}), a worker's spill directory
 * however it is given ({@code WorkerMemory}) and the Pekko member's stores, each of which words
 * its own refusal. ({@code DevCertificates} applies the same rule to its
 * directory with a copy of its own: it also runs as a single-file program, on the JDK alone; it
 * lets a directory of another user's above its own be, see there.)
 *
 * <p>A file is another user's to change if it belongs to another user (whoever owns a file may
 * rewrite it, or change its mode), if its group or others may write it, if a directory above
 * it may be written by anyone and is not sticky: there anyone may rename the file, or a directory
 * on its path, and put their own in its place (in a sticky directory, {@code /tmp}, only an
 * entry's owner may), or if a directory above it belongs to another user than this process's and
 * root ({@link #othersDirectory}): its owner may rename any entry in it, sticky or not, or give
 * themselves the right to. A directory writable by its group is let be above a file (a umask of
 * 002 makes every directory so, for a group of its user alone); each caller says whether the file
 * itself may be group-writable.
 *
 * <p>Where the file system has no unix view (Windows), its access lists are the operator's to
 * set: the checks that need the view answer that nothing is wrong. A process whose user the file
 * system cannot name (a container's bare uid) is checked by permissions alone.
 *
 * <p>Internal: exported to the Pekko transport's module only, not part of the API.
 */
public final class OwnFiles {

    /** The sticky bit of a unix mode. */
    private static final int STICKY = 01000;
    /** The "others may write" bit of a unix mode. */
    private static final int OTHERS_WRITE = 0002;

    private OwnFiles() {
    }

    /**
     * Whether the file at {@code real} (a real path, links resolved), owned by {@code owner},
     * belongs to another user than this process's, and, with {@code rootAllowed}, than root.
     *
     * @param real the file's real path
     * @param owner the file's owner, as its attributes name it
     * @param rootAllowed whether a file of root's is let be (root may change any file anyway)
     * @return whether it is another user's; {@code false} where this process's user cannot be told
     * @throws IOException if the file's owner id cannot be read
     */
    public static boolean ownedByAnother(Path real, UserPrincipal owner, boolean rootAllowed) throws IOException {
        UserPrincipal me = currentUser(real);
        if (me == null || owner.equals(me)) {
            return false;
        }
        return !(rootAllowed && ownedByRoot(real));
    }

    /**
     * Whether {@code permissions} let a file's group or others write it.
     *
     * @param permissions a file's permissions
     * @return whether anyone but its owner may write it
     */
    public static boolean othersMayWrite(Set<PosixFilePermission> permissions) {
        return permissions.contains(PosixFilePermission.GROUP_WRITE)
                || permissions.contains(PosixFilePermission.OTHERS_WRITE);
    }

    /**
     * The first directory, from {@code from} itself up to the root, that anyone may write in and
     * that is not sticky.
     *
     * @param from a real path (links resolved) of a directory
     * @return that directory, or {@code null} if there is none or the file system has no unix view
     * @throws IOException if a directory's mode cannot be read
     */
    public static Path openDirectory(Path from) throws IOException {
        for (Path up = from; up != null; up = up.getParent()) {
            int mode = unixAttribute(up, "mode", 0);
            if ((mode & OTHERS_WRITE) != 0 && (mode & STICKY) == 0) {
                return up;
            }
        }
        return null;
    }

    /**
     * The first directory, from {@code from} itself up to the root, that belongs to another user
     * than this process's and root: its owner may rename any entry in it (or make it writable to
     * do so), and put their own in its place. Root's directories are let be: root may change any
     * file anyway.
     *
     * @param from a real path (links resolved) of a directory
     * @return that directory, or {@code null} if there is none, the file system has no unix view,
     *     or this process's user cannot be told
     * @throws IOException if a directory's owner cannot be read
     */
    public static Path othersDirectory(Path from) throws IOException {
        if (!from.getFileSystem().supportedFileAttributeViews().contains("unix")) {
            return null;                      // access lists are the operator's (see above)
        }
        UserPrincipal me = currentUser(from);
        if (me == null) {
            return null;                      // a user without a name: permissions alone
        }
        for (Path up = from; up != null; up = up.getParent()) {
            if (!Files.getOwner(up).equals(me) && !ownedByRoot(up)) {
                return up;
            }
        }
        return null;
    }

    /**
     * This process's user, as the file system of {@code on} names owners.
     *
     * @param on a path on that file system
     * @return the user, or {@code null} if it cannot be told
     */
    public static UserPrincipal currentUser(Path on) {
        try {
            return on.getFileSystem().getUserPrincipalLookupService()
                    .lookupPrincipalByName(System.getProperty("user.name"));
        } catch (IOException | RuntimeException unknown) {
            return null;                      // a user without a name (a container's bare uid): permissions alone
        }
    }

    private static boolean ownedByRoot(Path p) throws IOException {
        int uid = unixAttribute(p, "uid", -1);
        return uid == 0 || (uid == -1 && "root".equals(Files.getOwner(p).getName()));
    }

    /** A number of the file system's unix view ({@code uid}, {@code mode}), or {@code otherwise} where it has none. */
    private static int unixAttribute(Path p, String name, int otherwise) throws IOException {
        try {
            return (Integer) Files.getAttribute(p, "unix:" + name);
        } catch (UnsupportedOperationException | IllegalArgumentException noUnixView) {
            return otherwise;
        }
    }
}
