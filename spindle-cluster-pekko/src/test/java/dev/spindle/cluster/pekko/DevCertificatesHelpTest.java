/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ./spindle --help} says "Run 'spindle COMMAND --help' for a command's options" and lists
 * {@code certs}; {@code ./spindle certs --help} answered "unknown option --help" with exit
 * status 2. It now prints what the command makes and its usage, with status 0.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DevCertificatesHelpTest {

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void certsHelpPrintsTheUsage(String option) throws Exception {
        TestCerts.ScriptRun run = TestCerts.runCertsScript(option);
        assertThat(run.status()).as(run.output()).isZero();
        assertThat(run.output()).contains("usage: spindle certs DIR").contains(DevCertificates.TRUST_STORE)
                .doesNotContain("unknown option");
    }
}
