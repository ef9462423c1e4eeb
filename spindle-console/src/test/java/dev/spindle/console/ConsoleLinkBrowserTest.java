/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpServer;
import dev.spindle.SchedulerStats;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A link to {@link Console#uri()} in a page of another site, clicked in headless Chromium: the
 * page served at {@code localhost:<another port>} (another site than {@code 127.0.0.1}, as a
 * notebook's page is) and at {@code 127.0.0.1:<another port>} (the same site, another port). The
 * console refused the browser's navigation (403) and the user saw no page; now the page loads,
 * its script runs and its event stream goes live. Skipped, saying why, where no Chromium and
 * chromedriver are installed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsoleLinkBrowserTest {

    @Test
    void aLinkToTheConsoleClickedInAnotherSitesPageOpensTheLiveConsole() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get(ConsoleBrowserTest.BROWSER))
                && Files.isExecutable(Paths.get(ConsoleBrowserTest.DRIVER)),
                "no browser for the console's browser test: " + ConsoleBrowserTest.BROWSER + " and "
                        + ConsoleBrowserTest.DRIVER + " are needed");
        SchedulerStats stats = new SchedulerStats("linked-pool", 1, 1, 0, 0,
                List.of(new SchedulerStats.WorkerStats(0, true, 0, 0, 0, 0, 0, 0, 0, 0)));
        HttpServer notebook = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        try (Console console = Console.builder().interval(Duration.ofMillis(200)).start()) {
            console.register("linked-pool", () -> stats);
            byte[] page = ("<!DOCTYPE html><html><head><title>notebook</title></head><body>"
                    + "<a id=\"console\" href=\"" + console.uri() + "\">console</a></body></html>")
                    .getBytes(StandardCharsets.UTF_8);
            notebook.createContext("/", ex -> {
                ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
                ex.sendResponseHeaders(200, page.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(page);
                }
            });
            notebook.start();
            int port = notebook.getAddress().getPort();
            WebDriver driver = ConsoleBrowserTest.chromium();
            try {
                for (String linkingPage : List.of("http://localhost:" + port + "/", "http://127.0.0.1:" + port + "/")) {
                    driver.get(linkingPage);
                    assertThat(driver.getTitle()).isEqualTo("notebook");
                    driver.findElement(By.id("console")).click();
                    WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                    wait.withMessage(() -> "the console's page, its link clicked in " + linkingPage + ", shows: "
                            + driver.findElement(By.tagName("body")).getText());
                    String status = wait.until(d -> {
                        List<WebElement> s = d.findElements(By.id("status"));
                        return !s.isEmpty() && s.get(0).getText().startsWith("live") ? s.get(0).getText() : null;
                    });
                    assertThat(status).as("the console, its link clicked in " + linkingPage).startsWith("live");
                    assertThat(driver.getTitle()).isEqualTo("Spindle console");
                    wait.until(d -> !d.findElements(By.cssSelector("section.card[data-name='linked-pool']")).isEmpty());
                }
            } finally {
                driver.quit();
            }
        } finally {
            notebook.stop(0);
        }
    }
}
