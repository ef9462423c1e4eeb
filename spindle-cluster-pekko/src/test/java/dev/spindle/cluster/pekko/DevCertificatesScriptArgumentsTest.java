/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ./spindle certs DIR MEMBER...} refuses bad member arguments (exit 2) before it writes
 * anything: no directory, no generated password file, no CA, no member.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DevCertificatesScriptArgumentsTest {

    /**
     * {@code certs DIR worker worker} made the CA and worker's store, then failed on the second
     * {@code worker} (exit 1, "the member's key store exists"): the check that refuses an existing
     * member up front missed a name given twice. And {@code certs DIR ../evil} was refused only
     * after DIR and a generated password file had been written.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "worker worker | member 'worker' given twice",
        "../evil       | not a usable member name",
    })
    void badMembersAreRefusedBeforeAnythingIsWritten(String members, String message, @TempDir Path dir) throws Exception {
        Path stores = dir.resolve("stores");
        List<String> args = new java.util.ArrayList<>(List.of(stores.toString()));
        args.addAll(List.of(members.split(" ")));
        TestCerts.ScriptRun run = TestCerts.runCertsScript(args.toArray(String[]::new));
        String out = run.output();
        assertThat(run.status()).as(out).isEqualTo(2);
        assertThat(out).contains(message).contains("usage: spindle certs DIR");
        assertThat(stores).as("nothing written; output:%n%s", out).doesNotExist();
    }
}
