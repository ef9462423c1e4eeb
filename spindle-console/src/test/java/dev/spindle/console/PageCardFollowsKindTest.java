/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.SchedulerStats;
import dev.spindle.actor.ActorSystem;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page built a source's card, its label and its charts, for the kind of the first sample it
 * saw, and kept them: a source whose first sample failed stayed labelled "error" once it worked,
 * and a name registered again for another kind of thing (a pool replaced by an actor system) kept
 * the pool's worker chart, never drawn again, beside the actor system's figures. In headless
 * Chromium, as {@link ConsoleBrowserTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PageCardFollowsKindTest {

    private static final By KIND = By.cssSelector("section.card h2 .kind");

    @Test
    void aCardFollowsTheKindOfWhatItsNameShows() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get(ConsoleBrowserTest.BROWSER))
                        && Files.isExecutable(Paths.get(ConsoleBrowserTest.DRIVER)),
                "no browser for the console's browser tests: " + ConsoleBrowserTest.BROWSER + " and "
                        + ConsoleBrowserTest.DRIVER + " are needed (./spindle test installs them)");
        SchedulerStats idle = new SchedulerStats("job-pool", 1, 0, 0, 0, List.of());
        AtomicBoolean ready = new AtomicBoolean();
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(100)).start();
                ActorSystem system = ActorSystem.builder().name("job-actors").build()) {
            console.register("job", () -> {
                if (!ready.get()) {
                    throw new IllegalStateException("not started yet");
                }
                return idle;
            });
            WebDriver driver = ConsoleBrowserTest.chromium();
            try {
                driver.get(console.uri().toString());
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                wait.until(d -> d.findElements(KIND).size() == 1 && d.findElement(KIND).getText().equals("error"));

                ready.set(true);
                wait.until(d -> !d.findElements(By.cssSelector("section.card canvas.workers")).isEmpty());
                assertThat(driver.findElement(KIND).getText()).as("the label of a source that works now")
                        .isEqualTo("scheduler");

                console.register("job", system);     // the name now shows an actor system
                wait.until(d -> !d.findElements(By.cssSelector("section.card ol.mailboxes")).isEmpty());
                WebElement card = driver.findElement(By.cssSelector("section.card"));
                assertThat(driver.findElements(By.cssSelector("section.card"))).hasSize(1);
                assertThat(card.findElement(By.cssSelector("h2 .kind")).getText()).isEqualTo("actors");
                assertThat(card.findElements(By.cssSelector("canvas.workers")))
                        .as("the replaced pool's worker chart").isEmpty();
            } finally {
                driver.quit();
            }
        }
    }
}
