/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.internal.OwnFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.KeyStoreException;
import java.util.Collections;
import java.util.Set;

/**
 * The check a member's key store and trust store pass before the member uses them: no one but
 * their owner (this process's user, or root) may change them. The trust store decides who may
 * join the cluster, and its password does not protect it: a PKCS12 file written without an
 * integrity MAC is read under any password. So another local user who could change the file, or
 * replace it in its directory, put their own CA in it, and the member admitted every certificate
 * that CA signs: a worker of theirs was given the coordinator's tasks and returned results of its
 * choosing. Refused, as {@code ssh} refuses such key files:
 * <ul>
 *   <li>a store (the file a link leads to) that belongs to another user than this process's and
 *       root;</li>
 *   <li>a store its group or others may write;</li>
 *   <li>a store under a directory anyone may write in, unless that directory is sticky
 *       ({@code /tmp}), where only a file's owner may rename or remove it. A directory its group
 *       may write in is let be: a umask of 002 makes every directory so, for a group of the user
 *       alone.</li>
 *   <li>a store under a directory of another user's than this process's and root, who may
 *       rename any entry in it, sticky or not.</li>
 * </ul>
 * Reading is not checked: a trust store is public, and a key store's key is under the store
 * password (which the worker launchers read from a file only its owner may read). Where the file
 * system has no POSIX permissions (Windows), its access lists are the operator's to set.
 */
final class StoreFiles {

    private StoreFiles() {
    }

    /**
     * Why {@code store} cannot be opened as a PKCS12 store under {@code password} (or, with
     * {@code needsKey}, holds no private key), or {@code null} if it can. Pekko opens the stores
     * only when the first TLS connection is made: a worker given the wrong file or the wrong
     * password started, said it was joining, then logged a stack trace for every connection it
     * tried, and never joined nor stopped. A launcher asks first.
     *
     * @param store the store, as the settings checked it
     * @param password the store password
     * @param needsKey whether the store must hold a private key (a member's key store)
     * @return the problem, or {@code null}
     */
    static String openProblem(Path store, String password, boolean needsKey) {
        KeyStore ks;
        try (InputStream in = Files.newInputStream(store)) {
            ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password.toCharArray());
        } catch (IOException | GeneralSecurityException e) {
            return "cannot open it as a PKCS12 store with the store password (" + e.getMessage() + ")";
        }
        if (!needsKey) {
            return null;
        }
        try {
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias)) {
                    return null;
                }
            }
        } catch (KeyStoreException e) {
            return "cannot read its entries (" + e.getMessage() + ")";
        }
        return "it holds no private key: a member's key store holds its key and certificate";
    }

    /**
     * Checks {@code store} as the class comment says ({@link OwnFiles}).
     *
     * @param store the store's path, an existing regular file
     * @param what the store's name in the message, e.g. {@code "trust store"}
     * @return the store to read: its real path, the file checked (a link on the way given, in a
     *     directory another user may write in, could be pointed at their own store once the check
     *     had passed, and Pekko reads the store only as the member starts); where permissions are
     *     not POSIX, {@code store} as an absolute path
     * @throws IllegalArgumentException naming the store and what is wrong, if others may change it
     *     or it cannot be looked at
     */
    static Path check(Path store, String what) {
        if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            return store.toAbsolutePath();
        }
        try {
            Path real = store.toRealPath();
            PosixFileAttributes a = Files.readAttributes(real, PosixFileAttributes.class);
            if (OwnFiles.ownedByAnother(real, a.owner(), true)) {
                throw new IllegalArgumentException(what + " " + store + " belongs to " + a.owner().getName()
                        + ", not to this process's user or root: its owner could put their own CA in it");
            }
            Set<PosixFilePermission> p = a.permissions();
            if (OwnFiles.othersMayWrite(p)) {
                throw new IllegalArgumentException(what + " " + store + ": others than its owner may change it ("
                        + PosixFilePermissions.toString(p) + ") and put their own CA in it: chmod go-w " + store);
            }
            Path open = OwnFiles.openDirectory(real.getParent());
            if (open != null) {
                throw new IllegalArgumentException(what + " " + store + ": anyone may write in " + open
                        + " (not sticky), and replace the store with one of their own: keep it elsewhere");
            }
            Path theirs = OwnFiles.othersDirectory(real.getParent());
            if (theirs != null) {
                throw new IllegalArgumentException(what + " " + store + ": " + theirs + " belongs to "
                        + Files.getOwner(theirs).getName() + ", who may replace the store with one of their own:"
                        + " keep it elsewhere");
            }
            return real;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot look at the " + what + " " + store + ": " + e, e);
        }
    }
}
