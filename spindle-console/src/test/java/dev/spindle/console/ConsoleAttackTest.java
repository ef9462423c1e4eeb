package dev.spindle.console;

import static dev.spindle.console.ConsoleTest.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.SchedulerStats;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Requests an attacker would send: the console answers each with a refusal and keeps serving. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleAttackTest {

    private static final String TOKEN = "s3cr3t-token-for-the-tests";

    /** Sends {@code request} as raw bytes and returns the status line of the answer. */
    static String raw(Console console, String request) throws Exception {
        try (Socket s = new Socket()) {
            s.connect(console.address(), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != -1 && c != '\n'; ) {
                line.append((char) c);
            }
            return line.toString().trim();
        }
    }

    /** As {@link #raw}, but a connection the server resets, while the request is sent or after, reads as empty. */
    private static String rawOrReset(Console console, String request) throws Exception {
        try {
            return raw(console, request);
        } catch (SocketException reset) {
            return "";
        }
    }

    private static String host(Console c) {
        return "127.0.0.1:" + c.address().getPort();
    }

    @Test
    void aNonLoopbackBindWithoutATokenIsRefused() throws Exception {
        assertThatThrownBy(() -> Console.builder().withoutToken().bindAddress(InetAddress.getByName("0.0.0.0")).start())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("requires an access token");
    }

    @Test
    void aWildcardBindWithATokenServesOnlyThoseWhoPresentIt() throws Exception {
        try (Console console = Console.builder().bindAddress(InetAddress.getByName("0.0.0.0")).token(TOKEN).start()) {
            URI withToken = console.uri();
            assertThat(withToken.getQuery()).isEqualTo("token=" + TOKEN);
            URI base = URI.create("http://127.0.0.1:" + console.address().getPort() + "/");
            HttpResponse<String> missing = get(base);
            assertThat(missing.statusCode()).isEqualTo(401);
            assertThat(missing.headers().firstValue("WWW-Authenticate")).isPresent();
            assertThat(get(base.resolve("/?token=s3cr3t-token-for-the-tesTs")).statusCode()).isEqualTo(403);
            assertThat(get(base.resolve("/snapshot?token=x")).statusCode()).isEqualTo(403);
            assertThat(get(base.resolve("/snapshot?token=")).statusCode()).isEqualTo(403);
            assertThat(get(withToken).statusCode()).isEqualTo(200);
            assertThat(get(base.resolve("/snapshot?token=" + TOKEN)).statusCode()).isEqualTo(200);
            HttpResponse<String> bearer = ConsoleTest.HTTP.send(HttpRequest.newBuilder(base.resolve("/snapshot"))
                    .header("Authorization", "Bearer " + TOKEN).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(bearer.statusCode()).isEqualTo(200);
            HttpResponse<String> wrongBearer = ConsoleTest.HTTP.send(HttpRequest.newBuilder(base.resolve("/snapshot"))
                    .header("Authorization", "Bearer nope").timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(wrongBearer.statusCode()).isEqualTo(403);
            // the checks come before the path: an unknown path without the token says nothing about it
            assertThat(get(base.resolve("/secret")).statusCode()).isEqualTo(401);
        }
    }

    @Test
    void oddAndOversizedRequestsAreRefusedAndTheConsoleGoesOn() throws Exception {
        try (Console console = Console.builder().withoutToken().start()) {
            String h = host(console);
            assertThat(raw(console, "POST / HTTP/1.1\r\nHost: " + h + "\r\nContent-Length: 0\r\n\r\n"))
                    .startsWith("HTTP/1.1 405");
            assertThat(raw(console, "DELETE /snapshot HTTP/1.1\r\nHost: " + h + "\r\n\r\n")).startsWith("HTTP/1.1 405");
            assertThat(raw(console, "GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: " + h + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 414");
            assertThat(raw(console, "GET / HTTP/1.1\r\nHost: " + h + "\r\nContent-Length: 100000000\r\n\r\n"))
                    .startsWith("HTTP/1.1 413");
            assertThat(raw(console, "GET / HTTP/1.1\r\nHost: " + h + "\r\nTransfer-Encoding: chunked\r\n\r\n"))
                    .startsWith("HTTP/1.1 413");
            assertThat(raw(console, "GET /../../etc/passwd HTTP/1.1\r\nHost: " + h + "\r\n\r\n"))
                    .startsWith("HTTP/1.1 404");
            // DNS rebinding: a page of another site re-pointed at 127.0.0.1 sends its own Host
            assertThat(raw(console, "GET /snapshot HTTP/1.1\r\nHost: evil.example:" + console.address().getPort()
                    + "\r\n\r\n")).startsWith("HTTP/1.1 403");
            assertThat(raw(console, "GET /snapshot HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 4");
            // a head too large is refused by the JDK's server before the console sees it (see the
            // class comment of Console): its connection closed, or a 4xx, and the console goes on
            StringBuilder manyHeaders = new StringBuilder("GET /snapshot HTTP/1.1\r\nHost: " + h + "\r\n");
            for (int i = 0; i < 5000; i++) {
                manyHeaders.append("X-Header-").append(i).append(": v\r\n");
            }
            for (String head : List.of(manyHeaders + "\r\n",
                    "GET /snapshot HTTP/1.1\r\nHost: " + h + "\r\nX-Big: " + "a".repeat(1 << 20) + "\r\n\r\n",
                    "GET /" + "a".repeat(1 << 20) + " HTTP/1.1\r\nHost: " + h + "\r\n\r\n")) {
                assertThat(rawOrReset(console, head)).as("a head of %d bytes", head.length())
                        .satisfiesAnyOf(s -> assertThat(s).isEmpty(), s -> assertThat(s).startsWith("HTTP/1.1 4"));
            }
            String garbage = raw(console, "\u0000\u0001garbage\r\n\r\n");
            assertThat(garbage).satisfiesAnyOf(s -> assertThat(s).isEmpty(), s -> assertThat(s).startsWith("HTTP/1.1 4"));
            assertThat(get(console.uri()).statusCode()).as("still serving").isEqualTo(200);
        }
    }

    @Test
    void eventStreamsAreBounded() throws Exception {
        try (Console console = Console.builder().withoutToken().maxClients(2).interval(Duration.ofMillis(100)).start()) {
            List<Socket> open = new ArrayList<>();
            try {
                for (int i = 0; i < 2; i++) {
                    open.add(openStream(console));
                }
                assertThat(raw(console, "GET /events HTTP/1.1\r\nHost: " + host(console) + "\r\n\r\n"))
                        .startsWith("HTTP/1.1 503");
                assertThat(get(console.uri()).statusCode()).as("the page is still served").isEqualTo(200);
            } finally {
                for (Socket s : open) {
                    s.close();
                }
            }
        }
    }

    /**
     * The attacker of the JDK's server: half-sent request heads, each of which takes a handler
     * thread, and behind them a flood of complete requests without the token. Every tokenless
     * request is answered (401) or its connection closed, none waits without end (with a queue
     * without bound they waited behind the slow ones for ever); every slow connection is closed
     * by the console although the attacker keeps it open; afterwards the page, and an event
     * stream that lives past the request deadline, are served to the token's holder.
     */
    @Test
    void aFloodOfSlowAndTokenlessRequestsNeitherQueuesWithoutEndNorKeepsThePageAway() throws Exception {
        try (Console console = Console.builder().token(TOKEN).maxClients(1).requestTimeout(Duration.ofSeconds(1))
                .interval(Duration.ofMillis(50)).start()) {
            String h = host(console);
            List<Socket> slow = new ArrayList<>();
            List<Socket> tokenless = new ArrayList<>();
            try {
                for (int i = 0; i < 40; i++) {
                    slow.add(send(console, "GET /snapshot HTTP/1.1\r\nHost: " + h + "\r\nX-Slow: "));
                }
                for (int i = 0; i < 200; i++) {
                    tokenless.add(send(console, "GET /snapshot HTTP/1.1\r\nHost: " + h + "\r\n\r\n"));
                }
                for (Socket s : tokenless) {
                    assertThat(statusOrClosed(s)).as("a tokenless request").matches("HTTP/1\\.1 401 .*|closed");
                }
                for (Socket s : slow) {
                    assertThat(statusOrClosed(s)).as("a half-sent request").isEqualTo("closed");
                }
                // the token's holder: the page (a retry only if its connection met the end of the flood)
                int status = 0;
                for (int attempt = 0; attempt < 20 && status != 200; attempt++) {
                    try {
                        status = get(console.uri()).statusCode();
                    } catch (IOException reset) {
                        Thread.sleep(100);
                    }
                }
                assertThat(status).as("the page, after the flood").isEqualTo(200);
                try (Socket stream = new Socket()) {
                    stream.connect(console.address(), 5000);
                    stream.setSoTimeout(10_000);
                    stream.getOutputStream().write(("GET /events?token=" + TOKEN + " HTTP/1.1\r\nHost: " + h
                            + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    BufferedReader in = new BufferedReader(new InputStreamReader(stream.getInputStream(),
                            StandardCharsets.UTF_8));
                    assertThat(in.readLine()).startsWith("HTTP/1.1 200");
                    // 40 samples 50 ms apart: the stream outlives the 1 s deadline of a request
                    int samples = 0;
                    for (String line; samples < 40 && (line = in.readLine()) != null; ) {
                        if (line.startsWith("data: ")) {
                            samples++;
                        }
                    }
                    assertThat(samples).as("samples on the event stream").isEqualTo(40);
                }
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
                for (Socket s : tokenless) {
                    s.close();
                }
            }
        }
    }

    /**
     * A client that opens the event stream and then stops reading: once the socket buffers are
     * full the console's write blocks, and the deadline on each write closes the connection and
     * frees the stream's slot (with {@code maxClients(1)}, the only one). Without that bound the
     * slot stayed taken and every other page got 503 for ever.
     */
    @Test
    void aStreamWhoseClientStopsReadingLosesItsSlot() throws Exception {
        // 2,000 workers: a sample of about 250 KB every 100 ms fills the buffers in seconds
        List<SchedulerStats.WorkerStats> workers = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            workers.add(new SchedulerStats.WorkerStats(i, false, i, 0, 0, 0, 0, 0, 0, 0));
        }
        SchedulerStats wide = new SchedulerStats("wide", 2000, 2000, 0, 0, workers);
        try (Console console = Console.builder().withoutToken().maxClients(1).requestTimeout(Duration.ofSeconds(1))
                .interval(Duration.ofMillis(100)).start()) {
            console.register("wide", () -> wide);
            String events = "GET /events HTTP/1.1\r\nHost: " + host(console) + "\r\n\r\n";
            try (Socket stalled = new Socket()) {
                stalled.setReceiveBufferSize(4096);
                stalled.connect(console.address(), 5000);
                stalled.setSoTimeout(10_000);
                stalled.getOutputStream().write(events.getBytes(StandardCharsets.ISO_8859_1));
                assertThat(statusOrClosed(stalled)).as("the stalled client's stream").startsWith("HTTP/1.1 200");
                // from here on it reads nothing; the next stream is refused until the console gives up on it
                String status;
                do {
                    status = raw(console, events);
                } while (status.startsWith("HTTP/1.1 503"));   // bounded by the class timeout
                assertThat(status).as("a stream after the stalled one").startsWith("HTTP/1.1 200");
            }
        }
    }

    /** Connects and sends {@code request}; a connection the console has already closed is returned too. */
    private static Socket send(Console console, String request) throws IOException {
        Socket s = new Socket();
        s.connect(console.address(), 5000);
        s.setSoTimeout(20_000);
        try {
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        } catch (IOException refused) {
            // closed unanswered already (a full queue): statusOrClosed says "closed"
        }
        return s;
    }

    /**
     * The status line of the answer, or "closed" if the console closed the connection without
     * one; fails (SocketTimeoutException) if neither happens in 20 s.
     */
    private static String statusOrClosed(Socket s) throws IOException {
        try {
            InputStream in = s.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c == -1) {
                    return line.length() == 0 ? "closed" : line.toString().trim();
                }
                line.append((char) c);
            }
            return line.toString().trim();
        } catch (SocketException reset) {
            return "closed";
        }
    }

    /** Opens an event stream and reads until its headers have come, so it holds its slot. */
    private static Socket openStream(Console console) throws Exception {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", console.address().getPort()), 5000);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(("GET /events HTTP/1.1\r\nHost: " + host(console) + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = s.getInputStream();
        String head = "";
        while (!head.contains("data: ")) {
            int c = in.read();
            if (c == -1) {
                throw new AssertionError("stream closed: " + head);
            }
            head += (char) c;
        }
        assertThat(head).startsWith("HTTP/1.1 200");
        return s;
    }
}
