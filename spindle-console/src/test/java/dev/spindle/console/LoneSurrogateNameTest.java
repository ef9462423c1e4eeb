/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static dev.spindle.console.ConsoleTest.get;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A name holding a surrogate without its other half (a Java string may, a name cut in the middle
 * of an emoji does): the console wrote it into the JSON as it was, and encoding the JSON to UTF-8
 * turned it into {@code ?}, so the page showed another name than the application's. JSON can
 * carry it as an escape ({@code \ud800}), as JavaScript strings do.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LoneSurrogateNameTest {

    @Test
    void aLoneSurrogateInANameIsEscapedNotReplaced() throws Exception {
        String name = "pool\uD800high lo\uDC00w";
        SchedulerStats stats = new SchedulerStats("pool\uDBFF", 0, 0, 0, 0, List.of());
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register(name, () -> stats);
            String snapshot;
            do {
                snapshot = get(console.uri().resolve("/snapshot")).body();
            } while (!snapshot.contains("\"kind\":\"scheduler\""));     // bounded by the class timeout
            assertThat(snapshot).contains("\"name\":\"pool\\ud800high lo\\udc00w\"")
                    .contains("\"scheduler\":\"pool\\udbff\"").doesNotContain("?");
        }
    }

    /** A pair in its order stays as it is; reversed, or cut, each half is escaped. */
    @Test
    void onlyASurrogateWithoutItsOtherHalfIsEscaped() {
        assertThat(Json.string(new StringBuilder(), "a\uD83D\uDE00b").toString()).isEqualTo("\"a\uD83D\uDE00b\"");
        assertThat(Json.string(new StringBuilder(), "\uDE00\uD83D").toString()).isEqualTo("\"\\ude00\\ud83d\"");
        assertThat(Json.string(new StringBuilder(), "\uD83D").toString()).isEqualTo("\"\\ud83d\"");
        assertThat(Json.string(new StringBuilder(), "\uDE00x").toString()).isEqualTo("\"\\ude00x\"");
    }

    /**
     * A long name is cut to {@link Source#MAX_TEXT} characters: cut between the halves of an
     * emoji, it ended in a lone surrogate, shown broken. The cut moves before the pair.
     */
    @Test
    void aLongNameIsNotCutBetweenTheHalvesOfAPair() {
        String emoji = "\uD83D\uDE00";
        String clipped = Source.clip("a".repeat(Source.MAX_TEXT - 2) + emoji + "tail");
        assertThat(clipped).isEqualTo("a".repeat(Source.MAX_TEXT - 2) + "…");
        String fits = Source.clip("a".repeat(Source.MAX_TEXT - 3) + emoji + "tail");
        assertThat(fits).isEqualTo("a".repeat(Source.MAX_TEXT - 3) + emoji + "…");
    }
}
