/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A Pekko worker's command line that names a port already taken, an address that does not
 * resolve, or more threads than a pool may have is a bad command line: {@link WorkerMain#start}
 * refuses it with an {@link IllegalArgumentException} naming the option, which {@code main}
 * prints as one line and the usage with status 2, before the member starts. The first two
 * started the member's actor system, whose bind failed with Pekko's
 * {@code RemoteTransportException}: a page of stack traces and status 1; the third started it
 * too, and was refused by the pool without naming {@code --threads}. A value that the settings
 * refuse is named by its option too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerMainListensOrRefusesTest {

    private static final Map<String, String> ENV = Map.of("SPINDLE_STORE_PASSWORD", "not-read-before-the-check");

    /** The required options; the stores need only exist, as nothing gets as far as opening them. */
    private static List<String> args(Path dir, String... more) throws IOException {
        Path keyStore = Files.createFile(dir.resolve("worker-" + System.nanoTime() + ".p12"));
        Path trustStore = Files.createFile(dir.resolve("trust-" + System.nanoTime() + ".p12"));
        List<String> args = new ArrayList<>(List.of("--id", "0", "--cluster", "c", "--key-store", keyStore.toString(),
                "--trust-store", trustStore.toString(), "--seed", "127.0.0.1:25520"));
        args.addAll(List.of(more));
        return args;
    }

    @Test
    void aPortTakenIsABadCommandLine(@TempDir Path dir) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            String port = Integer.toString(taken.getLocalPort());
            List<String> args = args(dir, "--port", port);
            assertThatThrownBy(() -> WorkerMain.start(args.toArray(new String[0]), ENV))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("cannot listen on 127.0.0.1:" + port)
                    .hasMessageContaining("--port");
        }
    }

    @Test
    void anAddressThatDoesNotResolveIsABadCommandLine(@TempDir Path dir) throws IOException {
        List<String> args = args(dir, "--bind", "no-such-host.invalid");
        assertThatThrownBy(() -> WorkerMain.start(args.toArray(new String[0]), ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--bind no-such-host.invalid: no such address");
    }

    /**
     * A value the settings builder refuses is reported under the option's name, not the API's
     * ({@code maxMessageBytes must be in...}, {@code seed node must be host:port}).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--bind              | ''",
        "--seed              | no-port",
        "--allow             | not a package",
        "--max-message-bytes | 1",
    })
    void aValueTheSettingsRefuseIsNamedByItsOption(String option, String value, @TempDir Path dir) throws IOException {
        List<String> args = args(dir, option, value);
        assertThatThrownBy(() -> WorkerMain.start(args.toArray(new String[0]), ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(option + ": ");
    }

    /**
     * A failure timeout out of the settings' range is named by its option, at either end: above
     * {@link PekkoClusterSettings#MAX_FAILURE_SECONDS} (longer than Pekko can schedule) it was
     * refused in the builder's words, {@code failureSeconds must be in 2..5000000}.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "5000001    | --failure-seconds must be at most 5000000, got 5000001",
        "2147483647 | --failure-seconds must be at most 5000000, got 2147483647",
        "2147483648 | --failure-seconds needs a whole number, got '2147483648'",
        "1          | --failure-seconds must be at least 2, got 1",
        "0          | --failure-seconds must be at least 2, got 0",
        "-5         | --failure-seconds must be at least 2, got -5",
    })
    void aFailureTimeoutOutOfRangeIsRefusedByItsOption(String value, String message, @TempDir Path dir)
            throws IOException {
        List<String> args = args(dir, "--failure-seconds", value);
        assertThatThrownBy(() -> WorkerMain.start(args.toArray(new String[0]), ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    /**
     * A store that is not there, or not a file, an empty cluster name or password file, and an
     * empty entry of a list are named by their option, once: they were refused in the settings'
     * words ({@code no key store at ...}, {@code clusterName must be ...}), as the current
     * directory ({@code --password-file : cannot read it (... Is a directory)}), or named twice
     * ({@code --seed: --seed 'a:1,': ...}).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--key-store     | /nonexistent/worker.p12 | --key-store /nonexistent/worker.p12: no such file",
        "--trust-store   | /nonexistent/trust.p12  | --trust-store /nonexistent/trust.p12: no such file",
        "--key-store     | ''                      | --key-store needs a file, got ''",
        "--trust-store   | /                       | --trust-store /: not a file",
        "--cluster       | ''                      | --cluster: clusterName must be letters, digits, '-' or '_' (at most 64), got ''",
        "--password-file | ''                      | --password-file needs a file, got ''",
        "--seed          | '127.0.0.1:25520,'      | --seed '127.0.0.1:25520,': an empty entry (a comma too many, or a variable that was not set?)",
    })
    void eachBadValueIsNamedByItsOptionOnce(String option, String value, String message, @TempDir Path dir)
            throws IOException {
        List<String> args = args(dir, option, value);
        assertThatThrownBy(() -> WorkerMain.start(args.toArray(new String[0]), ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(message);
    }

    @Test
    void moreThreadsThanAPoolMayHaveAreRefusedByTheirOption(@TempDir Path dir) throws IOException {
        List<String> args = args(dir, "--threads", "32768");
        assertThatThrownBy(() -> WorkerMain.start(args.toArray(new String[0]), ENV))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--threads must be at most 32767, got 32768");
    }
}
