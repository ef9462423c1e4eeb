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
 *       needs. One exception: a link to the console followed from another site (a notebook or
 *       a dashboard on another port that printed {@code Console.uri()}), that is a top-level
 *       navigation ({@code Sec-Fetch-Mode: navigate}, {@code Sec-Fetch-Dest: document}, no
 *       {@code Origin}) to the page {@code /} whose query carries the right token: the token
 *       proves the user was given the URL, and the page it loads makes only same-origin requests
 *       (its script, style and event stream carry the token in their own queries). Everything
 *       else of another site stays refused, with or without the token: an event stream or a
 *       {@code fetch} ({@code Sec-Fetch-Mode} {@code cors} or {@code no-cors}), a frame
 *       ({@code Sec-Fetch-Dest: iframe}), any path but the page; and so is such a navigation
 *       without the token, with a wrong one or to a console without one
 *       ({@link Console.Builder#withoutToken()}: nothing tells the link its user was given from
 *       one any site wrote; its address typed in or bookmarked is served, {@code none});</li>
 *   <li>with a token, the request carries it, as the query parameter {@code token} or as
 *       {@code Authorization: Bearer <token>}: missing, 401; wrong, 403 (compared in constant
 *       time; the query's value after its percent-escapes are decoded, as a client may escape
 *       any character, {@code ~} as {@code %7E} say).</li>
 * </ol>
 *
 * <p>Then the path must be one the console serves exactly (404 otherwise: no file system is
 * behind it, so {@code ..} and encodings reach nothing). Every answer carries
 * {@code Cache-Control: no-store}, {@code X-Content-Type-Options: nosniff},
 * {@code Referrer-Policy: no-referrer} (the page's URL holds the token),
 * {@code Cross-Origin-Opener-Policy: same-origin}, and a content security policy that allows only
 * the console's own script and style and {@code frame-ancestors 'none'}.
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
        if (!sameOrigin(h, hosts) && !followedLink(ex, h)) {
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
     * Whether a request {@link #sameOrigin} refuses is a link to the console's page followed in
     * another site's page, with the right token: a top-level navigation (the only kind a browser
     * marks {@code Sec-Fetch-Mode: navigate} and {@code Sec-Fetch-Dest: document}; a frame is
     * {@code iframe}, an event stream or fetch is {@code cors} or {@code no-cors}, and a page
     * cannot set these headers) to {@code /}, without an {@code Origin} (a browser sends none on
     * a {@code GET} navigation, so one that comes is not a browser's navigation), with the token in
     * its query (a navigation carries no {@code Authorization} a page chose). Such a navigation
     * gives the other site nothing to read: the page opens in its own browsing context, where
     * {@code Cross-Origin-Opener-Policy} cuts it off from the page that opened it. A console
     * without a token never admits one: nothing then tells a link its user was given from one
     * that any site wrote.
     */
    boolean followedLink(HttpExchange ex, Headers h) {
        if (token == null || !"/".equals(ex.getRequestURI().getRawPath()) || h.containsKey("Origin")
                || !only(h, "Sec-Fetch-Mode", "navigate") || !only(h, "Sec-Fetch-Dest", "document")) {
            return false;
        }
        String presented = queryToken(ex);
        return presented != null && token.matches(presented);
    }

    /** Whether {@code name} came once, with {@code value} (case-insensitive). */
    private static boolean only(Headers h, String name, String value) {
        List<String> values = h.get(name);
        return values != null && values.size() == 1 && values.get(0).trim().equalsIgnoreCase(value);
    }

    /**
     * The token from the query (the first {@code token=} part, wherever it stands, percent-decoded)
     * or the {@code Authorization} header; else null. Every part of the query is looked at: the
     * request target's length ({@link #MAX_TARGET}, checked before) bounds their number.
     */
    static String presentedToken(HttpExchange ex) {
        String fromQuery = queryToken(ex);
        if (fromQuery != null) {
            return fromQuery;
        }
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        if (auth != null && auth.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return auth.substring(7).trim();
        }
        return null;
    }

    /** The first {@code token=} part of the query, percent-decoded; else null. */
    private static String queryToken(HttpExchange ex) {
        String query = ex.getRequestURI().getRawQuery();
        if (query != null) {
            for (String part : query.split("&")) {
                if (part.startsWith("token=")) {
                    return percentDecoded(part.substring("token=".length()));
                }
            }
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
        // a page opened from another site's (a followed link, see followedLink) keeps no handle
        // on it, nor it on the page: no window.opener, no counting its frames
        r.set("Cross-Origin-Opener-Policy", "same-origin");
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
