/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The test cluster's certificates, made once per build with {@link DevCertificates} (the recipe
 * of {@code ./spindle certs}): a CA, CA-signed stores for the coordinator, the workers and an
 * impostor, and a self-signed "stranger".
 */
final class TestCerts {

    static final String PASSWORD = "spindle-test-password";

    /**
     * {@code SPINDLE_JAVA_OPTS} for a test's {@code ./spindle certs}: the script runs
     * DevCertificates.java as a single-file program, compiled at each start, and that compile is
     * a short run that C1 alone finishes sooner (about 40% less CPU). Only the speed differs.
     */
    static final String QUICK_START_JAVA = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC";
    private static final Path DIR = Path.of("target", "test-certs").toAbsolutePath();
    private static DevCertificates certs;

    private TestCerts() {
    }

    static synchronized DevCertificates get() {
        if (certs == null) {
            DevCertificates c = new DevCertificates(DIR, PASSWORD);
            Path done = DIR.resolve("complete");
            try {
                if (!Files.exists(done)) {
                    deleteStores();
                    c.createCa();
                    c.createMember("coordinator");
                    c.createMember("worker");
                    c.createMember("impostor");
                    c.createSelfSigned("stranger");
                    Files.createFile(done);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            certs = c;
        }
        return certs;
    }

    private static void deleteStores() throws IOException {
        if (Files.isDirectory(DIR)) {
            try (var files = Files.list(DIR)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Settings for {@code member}'s store on loopback, port 0, with the test package allowed. */
    static PekkoClusterSettings.Builder settings(String cluster, String member) {
        DevCertificates c = get();
        return PekkoClusterSettings.builder(cluster, c.memberStore(member), c.trustStore(), PASSWORD)
                .port(0).failureSeconds(3).allowPackage("dev.spindle.cluster.pekko");
    }

    /** The checkout's {@code ./spindle} script, run from a module's directory. */
    static final Path SCRIPT = Path.of("..", "spindle").toAbsolutePath().normalize();

    /** How {@code ./spindle certs} ended: its status and what it wrote to stdout and stderr, together. */
    record ScriptRun(int status, String output) {
    }

    /**
     * Runs {@code ./spindle certs ARGS...} to its end (at most 150 s, failing the test after that),
     * with the quick-start JVM and without {@code SPINDLE_STORE_PASSWORD} from the caller's
     * environment, so that a test sees the script's own handling of the password.
     */
    static ScriptRun runCertsScript(String... args) throws IOException, InterruptedException {
        return runCertsScriptIn(null, args);
    }

    /** {@link #runCertsScript} with {@code workingDirectory} as the current directory (null: this JVM's). */
    static ScriptRun runCertsScriptIn(Path workingDirectory, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(), "certs"));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        if (workingDirectory != null) {
            pb.directory(workingDirectory.toFile());
        }
        pb.environment().remove("SPINDLE_STORE_PASSWORD");
        pb.environment().put("SPINDLE_JAVA_OPTS", QUICK_START_JAVA);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(150, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./spindle certs " + String.join(" ", args) + " did not end; output:\n" + out);
        }
        return new ScriptRun(p.exitValue(), out);
    }
}
