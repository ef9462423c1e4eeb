package dev.spindle.console;

import static dev.spindle.console.ConsoleTest.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
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

    private static String host(Console c) {
        return "127.0.0.1:" + c.address().getPort();
    }

    @Test
    void aNonLoopbackBindWithoutATokenIsRefused() throws Exception {
        assertThatThrownBy(() -> Console.builder().bindAddress(InetAddress.getByName("0.0.0.0")).start())
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
        try (Console console = Console.start()) {
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
            String garbage = raw(console, "\u0000\u0001garbage\r\n\r\n");
            assertThat(garbage).satisfiesAnyOf(s -> assertThat(s).isEmpty(), s -> assertThat(s).startsWith("HTTP/1.1 4"));
            assertThat(get(console.uri()).statusCode()).as("still serving").isEqualTo(200);
        }
    }

    @Test
    void eventStreamsAreBounded() throws Exception {
        try (Console console = Console.builder().maxClients(2).interval(Duration.ofMillis(100)).start()) {
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
