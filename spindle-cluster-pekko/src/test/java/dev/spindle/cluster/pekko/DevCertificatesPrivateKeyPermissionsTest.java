/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Another local user reading the CA's key store (or a member's) can mint members, or take one's
 * place, once the store password falls to an offline guess (a chosen {@code SPINDLE_STORE_PASSWORD}):
 * the directory {@link DevCertificates} creates, and the key stores it writes, are the owner's only.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DevCertificatesPrivateKeyPermissionsTest {

    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);

    @Test
    void theKeyStoresAndTheirDirectoryAreReadableByTheOwnerOnly(@TempDir Path tmp) throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path dir = tmp.resolve("certs");
        DevCertificates certs = new DevCertificates(dir, "a-chosen-password");
        Path member = certs.createMember("m1");
        Path self = certs.createSelfSigned("m2");

        assertThat(Files.getPosixFilePermissions(dir)).doesNotContainAnyElementsOf(OTHERS);
        for (Path store : new Path[] {dir.resolve(DevCertificates.CA_STORE), member, self}) {
            assertThat(Files.getPosixFilePermissions(store)).as(store.toString()).doesNotContainAnyElementsOf(OTHERS);
        }
    }
}
