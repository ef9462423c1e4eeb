/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.SchedulerStats;
import dev.spindle.cluster.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page keeps per source a throughput history (and per cluster its task runs) by name. An
 * application that registers a source per job and unregisters it when the job is done (each
 * under a new name) saw its card go, but the page kept that name's history and runs for as long
 * as it stayed open: an open page grew with every source ever shown. In headless Chromium, as
 * {@link ConsoleBrowserTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PageForgetsRemovedSourcesTest {

    @Test
    void aSourceNoLongerShownLeavesNothingInThePage() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get(ConsoleBrowserTest.BROWSER))
                        && Files.isExecutable(Paths.get(ConsoleBrowserTest.DRIVER)),
                "no browser for the console's browser tests: " + ConsoleBrowserTest.BROWSER + " and "
                        + ConsoleBrowserTest.DRIVER + " are needed (./spindle test installs them)");
        SchedulerStats idle = new SchedulerStats("job-pool", 1, 0, 0, 0, List.of());
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(100)).start();
                LocalCluster cluster = LocalCluster.builder().workers(1).threadsPerWorker(1).build()) {
            for (int i = 0; i < 3; i++) {
                console.register("job-" + i, () -> idle);
            }
            console.register("job-cluster", cluster);
            WebDriver driver = ConsoleBrowserTest.chromium();
            try {
                driver.get(console.uri().toString());
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                By cards = By.cssSelector("section.card");
                wait.until(d -> d.findElements(cards).size() == 4);

                for (int i = 0; i < 3; i++) {
                    console.unregister("job-" + i);
                }
                console.unregister("job-cluster");
                wait.until(d -> d.findElements(cards).isEmpty());

                JavascriptExecutor js = (JavascriptExecutor) driver;
                assertThat(((Number) js.executeScript("return history.size")).intValue())
                        .as("throughput histories kept of sources no longer shown").isZero();
                assertThat(((Number) js.executeScript("return runs.size")).intValue())
                        .as("task runs kept of clusters no longer shown").isZero();
            } finally {
                driver.quit();
            }
        }
    }
}
