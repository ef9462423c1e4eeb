/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad settings and arguments fail with a message naming the problem; refusals are logged once per offender. */
// a hang guard: the first class to use TestCerts makes the stores, a dozen keytool JVMs, which
// took over 60 s with the machine loaded (load 37 on 2 cores)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SettingsAndLauncherTest {

    private static PekkoClusterSettings.Builder builder() {
        DevCertificates c = TestCerts.get();
        return PekkoClusterSettings.builder("jobs", c.memberStore("worker"), c.trustStore(), TestCerts.PASSWORD);
    }

    @Test
    void defaultsStayOnLoopback() {
        PekkoClusterSettings s = builder().build();
        assertThat(s.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(s.port()).isEqualTo(25520);
        assertThat(s.seedNodes()).isEmpty();
        assertThat(s.maxMessageBytes()).isEqualTo(256 * 1024);
    }

    @Test
    void badSettingsAreRefused() {
        DevCertificates c = TestCerts.get();
        assertThatThrownBy(() -> PekkoClusterSettings.builder("no spaces", c.memberStore("worker"), c.trustStore(), "pw"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clusterName");
        assertThatThrownBy(() -> PekkoClusterSettings.builder("jobs", Path.of("missing.p12"), c.trustStore(), "pw"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no key store at missing.p12");
        assertThatThrownBy(() -> PekkoClusterSettings.builder("jobs", c.memberStore("worker"), c.trustStore(), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("storePassword");
        assertThatThrownBy(() -> builder().port(70000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().seedNode("nohost")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("host:port");
        assertThatThrownBy(() -> builder().seedNode("h:0")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().allowPackage("com.example;!*")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a package name");
        assertThatThrownBy(() -> builder().failureSeconds(1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().maxMessageBytes(1000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> PekkoWorker.start(builder().build(), 0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("seed node");
    }

    @Test
    void workerMainNamesWhatIsWrongWithItsArguments() {
        Map<String, String> env = Map.of("SPINDLE_STORE_PASSWORD", TestCerts.PASSWORD);
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--id"}, env)).hasMessageContaining("missing value after --id");
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--id", "x"}, env))
                .hasMessageContaining("--id needs a whole number");
        // refused at once: the coordinator refuses such an id without a word, and the worker idled
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--id", "4096", "--cluster", "c", "--key-store", "k",
                "--trust-store", "t", "--seed", "127.0.0.1:1"}, env))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--id must be below 4096 (the most workers a cluster may have), got 4096");
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--bogus", "1"}, env))
                .hasMessageContaining("unknown option --bogus");
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--id", "0"}, env)).hasMessageContaining("are required");
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--id", "0", "--cluster", "c", "--key-store", "k",
                "--trust-store", "t", "--seed", "127.0.0.1:1", "--password-file", "/nonexistent/spindle-pw"}, env))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--password-file /nonexistent/spindle-pw: no such file");
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--id", "0", "--cluster", "c", "--key-store", "k",
                "--trust-store", "t", "--seed", "127.0.0.1:1"}, Map.of()))
                .hasMessage("no store password: set SPINDLE_STORE_PASSWORD or pass --password-file");
        assertThatThrownBy(() -> WorkerMain.start(new String[] {"--id", "0", "--cluster", "c", "--key-store", "k",
                "--trust-store", "t", "--seed", "127.0.0.1:1", "--memory-limit", "lots"}, env))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--memory-limit needs a size in bytes of at least 1, such as 512m or 2g, got 'lots'");
        assertThat(WorkerMain.start(new String[] {"--help"}, env)).isNull();
    }

    @Test
    void workerMainPrintsOneLineAndUsageAndExitsWith2OnBadArguments() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), WorkerMain.class.getName(),
                "--bogus", "1").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(out.lines().toList()).containsExactly("WorkerMain: unknown option --bogus", WorkerMain.USAGE);
    }

    @Test
    void aMissingPasswordFileIsOneLineAndTheUsageWithStatus2() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                WorkerMain.class.getName(), "--id", "0", "--cluster", "c", "--key-store", "k", "--trust-store", "t",
                "--seed", "127.0.0.1:1", "--password-file", "/nonexistent/spindle-pw").redirectErrorStream(true);
        pb.environment().remove("SPINDLE_STORE_PASSWORD");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isEqualTo(2);
        assertThat(out.lines().toList()).containsExactly("WorkerMain: --password-file /nonexistent/spindle-pw: no such file",
                WorkerMain.USAGE);
    }

    @Test
    void refusalsAreCountedEachTimeButLoggedOncePerOffender() {
        List<String> logged = new ArrayList<>();
        Logger log = Logger.getLogger(Refusals.class.getName());
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(java.text.MessageFormat.format(r.getMessage(), r.getParameters()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        log.addHandler(handler);
        try {
            Refusals refusals = new Refusals("frame");
            refusals.refuse("member a", "bad");
            refusals.refuse("member a", "bad again");
            refusals.refuse("member b", "bad");
            assertThat(refusals.count()).isEqualTo(3);
            assertThat(logged).hasSize(2);
            assertThat(logged.get(0)).startsWith("refused a frame (member a): bad");
        } finally {
            log.removeHandler(handler);
        }
    }
}
