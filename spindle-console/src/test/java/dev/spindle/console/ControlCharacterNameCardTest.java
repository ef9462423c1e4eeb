/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.SchedulerStats;
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
 * The page found a source's card by a CSS selector on its name, escaped with
 * {@code CSS.escape}, which writes a NUL as U+FFFD: a name holding a NUL matched no card, so each
 * sample built the card anew (its charts redrawn from nothing, the old one dropped), and a source
 * named with U+FFFD in its place was shown on the other's card. Names may hold anything (see
 * {@code Json}); the page now compares them as they are. In headless Chromium, as
 * {@link ConsoleBrowserTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ControlCharacterNameCardTest {

    @Test
    void aNameHoldingANulKeepsItsOwnCardFromSampleToSample() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get(ConsoleBrowserTest.BROWSER))
                        && Files.isExecutable(Paths.get(ConsoleBrowserTest.DRIVER)),
                "no browser for the console's browser tests: " + ConsoleBrowserTest.BROWSER + " and "
                        + ConsoleBrowserTest.DRIVER + " are needed (./spindle test installs them)");
        SchedulerStats idle = new SchedulerStats("job-pool", 1, 0, 0, 0, List.of());
        String nul = "job\u0000a";
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(100)).start()) {
            console.register(nul, () -> idle);
            WebDriver driver = ConsoleBrowserTest.chromium();
            try {
                driver.get(console.uri().toString());
                JavascriptExecutor js = (JavascriptExecutor) driver;
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                By cards = By.cssSelector("section.card");
                wait.until(d -> d.findElements(cards).size() == 1);
                js.executeScript("document.querySelector('section.card').dataset.mark = 'first'");
                // three samples more: the throughput history of the name grows by one a sample
                long seen = ((Number) js.executeScript("return history.get(arguments[0]).length", nul)).longValue();
                wait.until(d -> ((Number) js.executeScript("return history.get(arguments[0]).length", nul))
                        .longValue() >= Math.min(seen + 3, 60));
                assertThat(driver.findElements(cards)).hasSize(1);
                assertThat(driver.findElements(By.cssSelector("section.card[data-mark='first']")))
                        .as("the card first built for the name").hasSize(1);

                console.register("job\uFFFDa", () -> idle);   // another name, U+FFFD where the other has NUL
                wait.until(d -> ((Number) js.executeScript("return history.size")).intValue() == 2);
                long now = ((Number) js.executeScript("return history.get(arguments[0]).length", nul)).longValue();
                wait.until(d -> ((Number) js.executeScript("return history.get(arguments[0]).length", nul))
                        .longValue() >= Math.min(now + 3, 60));
                assertThat(driver.findElements(cards)).as("a card per name").hasSize(2);
                assertThat(driver.findElements(By.cssSelector("section.card[data-mark='first']"))).hasSize(1);
            } finally {
                driver.quit();
            }
        }
    }
}
