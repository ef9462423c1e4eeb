/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page, refused its event stream (503: every stream the console allows is open), says it is
 * retrying, and does: once a stream is free it goes live. A browser reconnects a stream that
 * dropped by itself, but not one answered with an error, and the page stayed dead, still saying
 * "retrying", until reloaded. In headless Chromium, as {@link ConsoleBrowserTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsolePageReconnectTest {

    @Test
    void aPageRefusedItsStreamGoesLiveOnceOneIsFree() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get(ConsoleBrowserTest.BROWSER))
                        && Files.isExecutable(Paths.get(ConsoleBrowserTest.DRIVER)),
                "no browser for the console's browser tests: " + ConsoleBrowserTest.BROWSER + " and "
                        + ConsoleBrowserTest.DRIVER + " are needed (./spindle test installs them)");
        HttpClient http = HttpClient.newHttpClient();
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(200)).maxClients(1).start()) {
            HttpResponse<InputStream> held = http.send(HttpRequest.newBuilder(console.uri().resolve("/events"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());
            assertThat(held.statusCode()).as("the one stream, taken").isEqualTo(200);
            WebDriver driver = ConsoleBrowserTest.chromium();
            try {
                driver.get(console.uri().toString());
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                By status = By.id("status");
                wait.until(d -> d.findElement(status).getText().contains("disconnected"));

                held.body().close();           // the console frees the stream at its next sample
                wait.until(d -> d.findElement(status).getAttribute("class").contains("live"));
                assertThat(driver.findElement(status).getText()).startsWith("live");
            } finally {
                driver.quit();
            }
        }
    }
}
