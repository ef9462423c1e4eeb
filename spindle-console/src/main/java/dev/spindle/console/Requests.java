/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The checks every request passes before the console answers it, in this order (the first that
 * fails answers):
 *
 * <ol>
 *   <li>the method is {@code GET} (405 otherwise; nothing the console serves changes state);</li>
 *   <li>the request target is at most {@link #MAX_TARGET} characters (414);</li>
 *   <li>there is no body: no {@code Transfer-Encoding}, no {@code Content-Length} other than 0
 *       (413); the console never reads one;</li>
 *   <li>without a token, the {@code Host} header names the loopback address the console is bound
 *       to ({@code 127.0.0.1}, {@code localhost}, {@code [::1]} or the bound address as
 *       {@code Console.uri()} writes it, in any case, with its port, which may be left out on port 80) (403): a page
 *       of another site whose name an attacker re-points at 127.0.0.1 (DNS rebinding) sends its
 *       own host name and gets nothing; a request target in absolute form
 *       ({@code GET http://host/...}) is checked by its host in place of the header's;</li>
 *   <li>the request is not a browser's for a page of another site: an {@code Origin} header,
 *       if sent, is {@code http://} and the host checked above, a {@code Sec-Fetch-Site} header,
 *       if sent, is {@code same-origin} or {@code none} (403): such a page cannot read what the
 *       console answers, but its event streams would hold the slots the console's own page
 *       needs;</li>
 *   <li>with a token, the request carries it, as the query parameter {@code token} or as
 *       {@code Authorization: Bearer <token>}: missing, 401; wrong, 403 (compared in constant
 *       time; the query's value after its percent-escapes are decoded, as a client may escape
 *       any character, {@code ~} as {@code %7E} say).</li>
 * </ol>
 *
 * <p>Then the path must be one the console serves exactly (404 otherwise: no file system is
 * behind it, so {@code ..} and encodings reach nothing). Every answer carries
 * {@code Cache-Control: no-store}, {@code X-Content-Type-Options: nosniff}, a content security
 * policy that allows only the console's own script and style and {@code frame-ancestors 'none'}.
 */
final class Requests {

    /** The longest request target (path and query) answered. */
    static final int MAX_TARGET = 2048;

    private final AccessToken token;
    private final int port;
    /** The bound address as {@code Console.uri()} writes it (an IPv6 one in brackets). */
    private final String ownHost;

    Requests(AccessToken token, int port, String ownHost) {
        this.token = token;
        this.port = port;
        this.ownHost = ownHost;
    }

    /**
     * Runs the checks; if one fails, answers the request and returns {@code false}.
     */
    boolean admit(HttpExchange ex) throws IOException {
        if (!"GET".equals(ex.getRequestMethod())) {
            ex.getResponseHeaders().set("Allow", "GET");
            return refuse(ex, 405, "only GET is served");
        }
        String target = ex.getRequestURI().toString();
        if (target.length() > MAX_TARGET) {
            return refuse(ex, 414, "request target too long");
        }
        Headers h = ex.getRequestHeaders();
        String length = h.getFirst("Content-Length");
        if (h.containsKey("Transfer-Encoding") || (length != null && !length.trim().equals("0"))) {
            return refuse(ex, 413, "a request body is not accepted");
        }
        // a target in absolute form names the host itself, and the Host header is then ignored
        // (RFC 9112, 3.2.2): checked in its place, else "GET http://evil.example/" passes
        URI uri = ex.getRequestURI();
        List<String> hosts = uri.isAbsolute() ? List.of(String.valueOf(uri.getRawAuthority())) : h.get("Host");
        if (token == null && !loopbackHost(hosts)) {
            return refuse(ex, 403, "unexpected Host header");
        }
        if (!sameOrigin(h, hosts)) {
            return refuse(ex, 403, "cross-site requests are not served");
        }
        if (token == null) {
            return true;
        }
        String presented = presentedToken(ex);
        if (presented == null) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer realm=\"spindle-console\"");
            return refuse(ex, 401, "an access token is required");
        }
        if (!token.matches(presented)) {
            return refuse(ex, 403, "wrong access token");
        }
        return true;
    }

    boolean loopbackHost(List<String> hosts) {
        if (hosts == null || hosts.size() != 1) {
            return false;
        }
        String host = hosts.get(0).trim();
        if (port == 80 && host.indexOf(':', host.lastIndexOf(']') + 1) < 0) {
            host = host + ":80";               // a browser leaves the default port out
        }
        // a host name is case-insensitive (LOCALHOST, and the hex digits of an IPv6 address)
        String suffix = ":" + port;
        return host.equalsIgnoreCase("127.0.0.1" + suffix) || host.equalsIgnoreCase("localhost" + suffix)
                || host.equalsIgnoreCase("[::1]" + suffix) || host.equalsIgnoreCase(ownHost + suffix);
    }

    /**
     * Whether a browser sent the request for a page of this console, or for none (an address
     * typed in, or a client that is not a browser and sends neither header). A page of another
     * site can make the browser request the console (an {@code EventSource}, a {@code no-cors}
     * fetch) with the right Host; it cannot read the answer, but an event stream it opens holds
     * one of the {@code maxClients} slots for as long as the page stays open. Such a request
     * carries an {@code Origin} other than the console's own, or {@code Sec-Fetch-Site} other than
     * {@code same-origin} or {@code none} ({@code same-site} is another port of the same host).
     */
    boolean sameOrigin(Headers h, List<String> hosts) {
        List<String> site = h.get("Sec-Fetch-Site");
        if (site != null && (site.size() != 1 || !(site.get(0).trim().equalsIgnoreCase("same-origin")
                || site.get(0).trim().equalsIgnoreCase("none")))) {
            return false;
        }
        List<String> origins = h.get("Origin");
        if (origins == null) {
            return true;
        }
        if (origins.size() != 1 || hosts == null || hosts.size() != 1) {
            return false;
        }
        String origin = origins.get(0).trim();
        String own = "http://" + hosts.get(0).trim();
        // a browser leaves the default port out of an origin
        return origin.equalsIgnoreCase(own) || (port == 80 && (origin + ":80").equalsIgnoreCase(own));
    }

    /**
     * The token from the query (the first {@code token=} part, wherever it stands, percent-decoded)
     * or the {@code Authorization} header; else null. Every part of the query is looked at: the
     * request target's length ({@link #MAX_TARGET}, checked before) bounds their number.
     */
    static String presentedToken(HttpExchange ex) {
        String query = ex.getRequestURI().getRawQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("token=")) {
                    return percentDecoded(part.substring("token=".length()));
                }
            }
        }
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        return null;
    }

    /**
     * A query value with its percent-escapes decoded: a client may escape any character of a URL,
     * and some escape {@code ~}, which is in the token's alphabet (Java's {@code URLEncoder}
     * writes {@code %7E}); compared as sent, such a token was refused as wrong. A {@code +} stays
     * a {@code +} (a token holds neither it nor a space, so it fails either way); a malformed
     * escape leaves the value as sent, whose {@code %} matches no token.
     */
    static String percentDecoded(String value) {
        if (value.indexOf('%') < 0) {
            return value;
        }
        try {
            return URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return value;
        }
    }

    /** The headers every answer carries. */
    static void commonHeaders(HttpExchange ex, String contentType) {
        Headers r = ex.getResponseHeaders();
        r.set("Content-Type", contentType);
        r.set("Cache-Control", "no-store");
        r.set("X-Content-Type-Options", "nosniff");
        r.set("Referrer-Policy", "no-referrer");
        r.set("Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self';"
                        + " frame-ancestors 'none'");
    }

    /** Answers with a short plain-text body. */
    static boolean refuse(HttpExchange ex, int status, String message) throws IOException {
        send(ex, status, "text/plain; charset=utf-8", (status + " " + message + "\n").getBytes(StandardCharsets.UTF_8));
        return false;
    }

    /**
     * Answers with {@code body} and closes the exchange. The answer to a {@code HEAD} request
     * (refused with 405) has no body: given a length, the JDK's server logs a warning for it,
     * and any client that can connect would write to the application's log at will.
     */
    static void send(HttpExchange ex, int status, String contentType, byte[] body) throws IOException {
        commonHeaders(ex, contentType);
        boolean noBody = body.length == 0 || "HEAD".equals(ex.getRequestMethod());
        ex.sendResponseHeaders(status, noBody ? -1 : body.length);
        try (OutputStream out = ex.getResponseBody()) {
            if (!noBody) {
                out.write(body);
            }
        }
    }
}
