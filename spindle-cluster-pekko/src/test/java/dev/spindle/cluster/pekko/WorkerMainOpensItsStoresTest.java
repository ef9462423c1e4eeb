/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Pekko worker whose key store or trust store does not open with the store password (the wrong
 * file, the wrong password) or whose key store holds no key is refused before it starts, naming
 * the option. Pekko opens the stores only for the first TLS connection: such a worker started,
 * printed that it was joining, then logged a stack trace for each connection it tried, and
 * never joined nor stopped.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WorkerMainOpensItsStoresTest {

    /** What {@link WorkerMain#start} threw; a worker it started after all is closed first. */
    private static Throwable start(String keyStore, String trustStore, String password) {
        return catchThrowable(() -> {
            WorkerMain.Launch launch = WorkerMain.start(new String[] {"--id", "0", "--threads", "1", "--cluster", "c",
                "--key-store", keyStore, "--trust-store", trustStore, "--seed", "127.0.0.1:25520", "--port", "0"},
                    Map.of("SPINDLE_STORE_PASSWORD", password));
            if (launch != null) {
                launch.worker().close();
            }
        });
    }

    @Test
    void aFileThatIsNoKeyStoreIsRefused(@TempDir Path dir) throws IOException {
        Path notAStore = Files.writeString(dir.resolve("worker.pem"), "-----BEGIN CERTIFICATE-----\n");
        Throwable t = start(notAStore.toString(), TestCerts.get().trustStore().toString(), TestCerts.PASSWORD);
        assertThat(t).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--key-store " + notAStore + ": cannot open it as a PKCS12 store");
    }

    @Test
    void theWrongPasswordIsRefused() {
        DevCertificates certs = TestCerts.get();
        Throwable t = start(certs.memberStore("worker").toString(), certs.trustStore().toString(), "not-the-password");
        assertThat(t).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--key-store " + certs.memberStore("worker") + ": cannot open it");
    }

    @Test
    void aKeyStoreWithoutAKeyIsRefused() {
        DevCertificates certs = TestCerts.get();
        Throwable t = start(certs.trustStore().toString(), certs.trustStore().toString(), TestCerts.PASSWORD);
        assertThat(t).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--key-store " + certs.trustStore() + ": it holds no private key");
    }
}
