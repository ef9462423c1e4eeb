/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A sample gives each task run of a cluster as milliseconds before the sample was taken. The page
 * counted them back from the moment it drew the sample, so a sample that reached it late (a
 * stream catching up on the samples it fell behind by) drew its runs as much later than they
 * ran. They are now counted back from the sample's own time. In headless Chromium, as
 * {@link ConsoleBrowserTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LateSampleRunsKeepTheirTimeTest {

    private static final Pattern TIME = Pattern.compile("\"time\":(\\d+),");
    private static final Pattern END_AGO = Pattern.compile("\"endAgoMs\":([0-9.]+),");

    private final List<TaskEvent> log = new CopyOnWriteArrayList<>();

    private final ClusterView cluster = new ClusterView() {
        @Override
        public ClusterStats stats() {
            return new ClusterStats(List.of(), 0, 0, 0, 0, 0, 0, 0);
        }

        @Override
        public List<StealEvent> stealEvents() {
            return List.of();
        }

        @Override
        public List<TaskEvent> taskEvents() {
            return List.copyOf(log);
        }
    };

    @AfterEach
    void noHook() {
        Console.beforeStreamWrite = null;
    }

    @Test
    void aRunSentLateIsPlacedWhenItRan() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get(ConsoleBrowserTest.BROWSER))
                        && Files.isExecutable(Paths.get(ConsoleBrowserTest.DRIVER)),
                "no browser for the console's browser tests: " + ConsoleBrowserTest.BROWSER + " and "
                        + ConsoleBrowserTest.DRIVER + " are needed (./spindle test installs them)");
        // a minute between samples: the test takes them itself, after the first
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMinutes(1)).start()) {
            while (!console.latest().contains("\"time\"")) {
                Thread.sleep(10);              // the sampler's first (bounded by the class timeout)
            }
            console.register("c", cluster);
            WebDriver driver = ConsoleBrowserTest.chromium();
            try {
                driver.get(console.uri().toString());
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                console.sample();
                wait.until(d -> !d.findElements(By.cssSelector("section.card")).isEmpty());

                // the next write waits a second: the sample reaches the page that much late
                Console.beforeStreamWrite = () -> {
                    Console.beforeStreamWrite = null;
                    try {
                        Thread.sleep(1000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                };
                long end = System.nanoTime();
                log.add(new TaskEvent(1, "k", 0, end - TimeUnit.MILLISECONDS.toNanos(5), end, false));
                console.sample();
                String sample = console.latest();
                Matcher time = TIME.matcher(sample);
                Matcher endAgo = END_AGO.matcher(sample);
                assertThat(time.find() && endAgo.find()).as("%s", sample).isTrue();
                double ranUntil = Long.parseLong(time.group(1)) - Double.parseDouble(endAgo.group(1));

                JavascriptExecutor js = (JavascriptExecutor) driver;
                wait.until(d -> ((Number) js.executeScript(
                        "return runs.has('c') ? runs.get('c').length : 0")).intValue() == 1);
                double drawnUntil = ((Number) js.executeScript("return runs.get('c')[0].end")).doubleValue();
                assertThat(drawnUntil).as("the run's end on the page, in ms since the epoch")
                        .isCloseTo(ranUntil, within(1e-3));
            } finally {
                driver.quit();
            }
        }
    }
}
