/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;

/**
 * Another local user for the tests that play one (a file or directory given away to them): the
 * user {@code nobody}, which only root can give a file to. The calling test is skipped where
 * that cannot be done (no POSIX permissions, not run as root, no such user).
 */
public final class OtherUser {

    private OtherUser() {
    }

    /**
     * The user {@code nobody}, as the file system of {@code on} names it; skips the calling test
     * if files cannot be given to it here.
     *
     * @param on a path on the file system the test uses
     * @return the user
     */
    public static UserPrincipal nobody(Path on) {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"),
                "a file system with POSIX permissions");
        assumeTrue("root".equals(System.getProperty("user.name")), "only root can give a file away");
        try {
            return on.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        } catch (IOException noSuchUser) {
            assumeTrue(false, "a user 'nobody'");
            throw new AssertionError("unreachable");
        }
    }
}
