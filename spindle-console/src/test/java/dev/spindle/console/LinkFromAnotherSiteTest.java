/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The URL {@link Console#uri()} prints, clicked in a page of another site (a notebook, a local
 * dashboard on another port of the machine), is a top-level navigation that the browser marks
 * {@code Sec-Fetch-Site: cross-site} (or {@code same-site}, another port of the same host): the
 * console refused it with 403, so the user who clicked the URL it printed got no page. It is now
 * served when it carries the right token; every other request of another site, with the token or
 * without, is refused as before. The requests are sent over a socket with the headers a browser
 * sends for each.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LinkFromAnotherSiteTest {

    private static final String TOKEN = "a-token-the-user-was-given";

    /** The headers a browser sends for a link clicked in a page of {@code site}. */
    private static String clicked(String site) {
        return "Sec-Fetch-Site: " + site + "\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Dest: document\r\n"
                + "Sec-Fetch-User: ?1\r\nUpgrade-Insecure-Requests: 1\r\n";
    }

    private static String request(Console console, String target, String headers) {
        return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1:" + console.address().getPort() + "\r\n" + headers
                + "Connection: close\r\n\r\n";
    }

    /** The whole answer, head and body, to one request on its own connection. */
    private static String answer(Console console, String request) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(console.address(), 5000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void aLinkWithTheTokenFollowedFromAnotherSiteGetsThePageAndThePageWorks() throws Exception {
        try (Console console = Console.builder().token(TOKEN).maxClients(1).interval(Duration.ofMillis(100)).start()) {
            String target = "/" + "?" + console.uri().getQuery();
            for (String site : new String[] {"cross-site", "same-site"}) {
                String page = answer(console, request(console, target, clicked(site)));
                assertThat(page).as("the page, its link clicked in a page " + site).startsWith("HTTP/1.1 200")
                        .contains("<title>Spindle console</title>");
                assertThat(page.toLowerCase(Locale.ROOT)).as("cut off from the page that opened it")
                        .contains("\r\ncross-origin-opener-policy: same-origin\r\n")
                        .contains("\r\nreferrer-policy: no-referrer\r\n");
            }
            // what the page then asks for is same-origin, each with the token in its own query
            String js = answer(console, request(console, "/app.js?token=" + TOKEN,
                    "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: script\r\n"));
            assertThat(js).as("its script").startsWith("HTTP/1.1 200");
            String css = answer(console, request(console, "/app.css?token=" + TOKEN,
                    "Sec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: style\r\n"));
            assertThat(css).as("its style").startsWith("HTTP/1.1 200");
            // its EventSource, the one stream slot there is: the page's link did not take it
            assertThat(ConsoleAttackTest.raw(console, "GET /events?token=" + TOKEN + " HTTP/1.1\r\nHost: 127.0.0.1:"
                    + console.address().getPort() + "\r\nSec-Fetch-Site: same-origin\r\nSec-Fetch-Mode: cors\r\n"
                    + "Sec-Fetch-Dest: empty\r\n\r\n")).as("its event stream").startsWith("HTTP/1.1 200");
        }
    }

    /**
     * What another site's page can make a browser send, with the token (a page that printed the
     * URL knows it) or without: each refused, and no event stream slot taken.
     */
    @Test
    void everyOtherRequestOfAnotherSiteStaysRefused() throws Exception {
        try (Console console = Console.builder().token(TOKEN).maxClients(1).interval(Duration.ofMillis(100)).start();
                Console other = Console.start()) {
            String t = "?token=" + TOKEN;
            String[][] refused = {
                {"/events" + t, "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\n"
                        + "Origin: http://localhost:8888\r\n", "an EventSource"},
                {"/events" + t, "Sec-Fetch-Site: same-site\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: empty\r\n",
                        "a no-cors fetch of the event stream"},
                {"/snapshot" + t, "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\n"
                        + "Origin: http://localhost:8888\r\n", "a cors fetch"},
                {"/" + t, "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: cors\r\nSec-Fetch-Dest: empty\r\n",
                        "a fetch of the page"},
                {"/" + t, "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Dest: iframe\r\n",
                        "the page in a frame"},
                {"/" + t, "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Dest: frame\r\n",
                        "the page in a frame set"},
                {"/" + t, "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\nSec-Fetch-Dest: script\r\n",
                        "the page as a script"},
                {"/app.js" + t, clicked("cross-site"), "a navigation to the script"},
                {"/snapshot" + t, clicked("cross-site"), "a navigation to the snapshot"},
                {"/events" + t, clicked("cross-site"), "a navigation to the event stream"},
                {"/", clicked("cross-site"), "a navigation without the token"},
                {"/?" + other.uri().getQuery(), clicked("cross-site"), "a navigation with another console's token"},
                {"/?token=" + TOKEN + "x", clicked("same-site"), "a navigation with a wrong token"},
                {"/", clicked("cross-site") + "Authorization: Bearer " + TOKEN + "\r\n",
                        "a navigation with the token in a header, not the query"},
                {"/" + t, clicked("cross-site") + "Origin: http://evil.example\r\n", "a navigation with an Origin"},
                {"/" + t, clicked("cross-site") + "Sec-Fetch-Mode: navigate\r\n", "Sec-Fetch-Mode twice"},
                {"/" + t, "Sec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\n", "no Sec-Fetch-Dest"},
            };
            for (String[] r : refused) {
                String answer = answer(console, request(console, r[0], r[1]));
                assertThat(answer).as(r[2]).startsWith("HTTP/1.1 403")
                        .doesNotContain("<title>").doesNotContain(TOKEN);
            }
            // none took the one stream slot: the console's own page still gets it
            assertThat(ConsoleAttackTest.raw(console, "GET /events" + t + " HTTP/1.1\r\nHost: 127.0.0.1:"
                    + console.address().getPort() + "\r\nSec-Fetch-Site: same-origin\r\n\r\n"))
                    .as("the page's own stream").startsWith("HTTP/1.1 200");
        }
    }

    /**
     * Without a token nothing tells a link its user was given from one any site wrote: such a
     * console serves no navigation of another site, only its address opened directly.
     */
    @Test
    void aConsoleWithoutATokenServesNoLinkOfAnotherSite() throws Exception {
        try (Console console = Console.builder().withoutToken().start()) {
            assertThat(answer(console, request(console, "/", clicked("cross-site")))).startsWith("HTTP/1.1 403");
            assertThat(answer(console, request(console, "/?token=" + TOKEN, clicked("same-site"))))
                    .startsWith("HTTP/1.1 403");
            assertThat(answer(console, request(console, "/", clicked("none")))).as("its address typed in")
                    .startsWith("HTTP/1.1 200");
        }
    }
}
