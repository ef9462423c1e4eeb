/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The access token goes nowhere but the page that carries it: no refusal (wrong token, another
 * console's, a bad method, path, body, target or Host) echoes the token it was sent or the
 * console's own, sends the client elsewhere ({@code Location}) or lets a page pass it on in a
 * {@code Referer} (an event stream a page of another site asks for, too: refused with the right token); and the console's own log, at every level, never holds it, whatever its
 * sources do (a failing source, a stuck one, a close that leaves it behind). (The JDK server's
 * request log, {@code com.sun.net.httpserver} at debug level, does hold each request line:
 * {@link Console.Builder#token} says so.)
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class TokenStaysOutOfAnswersAndLogsTest {

    /** The whole answer, head and body, to one request on its own connection. */
    private static String answer(Console console, String request) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(console.address(), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            in.transferTo(all);
            return all.toString(StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void noRefusalEchoesATokenOrSendsTheClientElsewhere() throws Exception {
        try (Console console = Console.start(); Console other = Console.start()) {
            String own = console.uri().getQuery().substring("token=".length());
            String others = other.uri().getQuery().substring("token=".length());
            String host = "Host: 127.0.0.1:" + console.address().getPort() + "\r\n";
            String close = "Connection: close\r\n\r\n";
            List<String> requests = List.of(
                    "GET /snapshot?token=" + others + " HTTP/1.1\r\n" + host + close,
                    "GET /snapshot HTTP/1.1\r\n" + host + "Authorization: Bearer " + others + "\r\n" + close,
                    "GET /nothing-here?token=" + own + " HTTP/1.1\r\n" + host + close,
                    "GET /../app.js?token=" + own + " HTTP/1.1\r\n" + host + close,
                    "POST /snapshot?token=" + own + " HTTP/1.1\r\n" + host + "Content-Length: 0\r\n" + close,
                    "GET /snapshot?token=" + own + " HTTP/1.1\r\n" + host + "Content-Length: 3\r\n" + close + "abc",
                    "GET /snapshot?token=" + own + "&x=" + "y".repeat(Requests.MAX_TARGET) + " HTTP/1.1\r\n" + host + close,
                    "GET /snapshot?token=" + own + " HTTP/1.1\r\n" + host + "Origin: http://evil.example\r\n" + close,
                    "GET /events?token=" + own + " HTTP/1.1\r\n" + host + "Sec-Fetch-Site: cross-site\r\n" + close);
            for (String request : requests) {
                String answer = answer(console, request);
                String status = answer.lines().findFirst().orElse("");
                assertThat(status).as("refused: %s", request.lines().findFirst().orElse(""))
                        .matches("HTTP/1\\.1 4\\d\\d .*");
                assertThat(answer).as("the answer to %s", status).doesNotContain(own).doesNotContain(others);
                assertThat(answer.toLowerCase(java.util.Locale.ROOT)).as("the answer to %s", status)
                        .doesNotContain("\r\nlocation:").contains("\r\nreferrer-policy: no-referrer\r\n");
            }
            // the page's script and style, fetched with it, carry no token either
            for (String path : List.of("/app.js", "/app.css")) {
                String answer = answer(console, "GET " + path + "?token=" + own + " HTTP/1.1\r\n" + host + close);
                assertThat(answer).startsWith("HTTP/1.1 200").contains("\r\n\r\n");
                assertThat(answer.substring(answer.indexOf("\r\n\r\n"))).as(path).doesNotContain(own);
            }
        }
    }

    @Test
    void theConsolesLogNeverHoldsItsToken() throws Exception {
        Logger logger = Logger.getLogger(Console.class.getName());
        List<String> logged = new ArrayList<>();
        CountDownLatch saidStuck = new CountDownLatch(1);
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                StringBuilder sb = new StringBuilder(String.valueOf(r.getMessage()));
                if (r.getParameters() != null) {
                    for (Object p : r.getParameters()) {
                        sb.append(' ').append(p);
                    }
                }
                if (r.getThrown() != null) {
                    sb.append(' ').append(r.getThrown());
                }
                synchronized (logged) {
                    logged.add(sb.toString());
                }
                if (sb.indexOf("\"stuck\" has not answered") >= 0) {
                    saidStuck.countDown();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Level was = logger.getLevel();
        logger.setLevel(Level.ALL);
        logger.addHandler(capture);
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Console console = Console.start();
        String own = console.uri().getQuery().substring("token=".length());
        try {
            console.register("failing", () -> {
                throw new IllegalStateException("a failing source");
            });
            console.register("stuck", () -> {
                stuck.countDown();
                // ignores interrupts: left behind by close(), which says so
                while (true) {
                    try {
                        if (release.await(60, TimeUnit.SECONDS)) {
                            return (SchedulerStats) null;
                        }
                    } catch (InterruptedException ignored) {
                        // stays, as a read stuck in such a call does
                    }
                }
            });
            assertThat(stuck.await(60, TimeUnit.SECONDS)).as("the stuck source was read").isTrue();
            assertThat(saidStuck.await(60, TimeUnit.SECONDS)).as("the console logged the stuck source").isTrue();
        } finally {
            console.close();
            release.countDown();
            logger.removeHandler(capture);
            logger.setLevel(was);
        }
        synchronized (logged) {
            assertThat(logged).as("the console's log").isNotEmpty();
            assertThat(logged).as("the console's log").noneMatch(line -> line.contains(own));
        }
    }
}
