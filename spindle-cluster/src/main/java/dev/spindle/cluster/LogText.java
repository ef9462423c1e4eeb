/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * Text a peer controls, made fit for one line of a log. A member's log names what it refused and
 * who sent it: a joiner's address, a claimed session, a class name read from a frame, a
 * certificate's subject. Those are the sender's own making, any characters of any length, and a
 * line break among them let the sender write whole lines of its own into the log (one that reads
 * as a member let in), a terminal escape rewrite what an operator's terminal shows, and a name of
 * kilobytes fill the log and the sets of offenders remembered. A task's key is of the same kind:
 * a client names it, and a worker has it from the coordinator, which took it from a client. Every
 * log line of the transports, the scheduler and the workers' stores that writes such text writes
 * it through {@link #printable}, here, so there is one rule for all.
 *
 * <p>Public only so that transports in other modules share one definition; it is not an API for
 * applications.
 */
public final class LogText {

    /**
     * The most characters of a task key that a log line of this module keeps: a key is the
     * client's (or, on a worker, the coordinator's, which has it from a client), of any length.
     */
    static final int MAX_KEY = 512;

    /**
     * The most characters of other outside text a log line of this module keeps: a failure's
     * description made by a user's class, a probe's failure reported by a transport.
     */
    static final int MAX_DETAIL = 1024;

    private LogText() {
    }

    /**
     * {@code text} (its {@code String.valueOf}) with every control character (a line break, the
     * escape that starts a terminal's commands), line or paragraph separator and invisible
     * formatting character (a bidirectional override, which shows text in another order than it
     * is) written as its Java escape ({@code \n}, {@code \r}, {@code \t}, else a backslash,
     * {@code u} and four hex digits), and cut after about {@code max} characters (then ending in
     * "..."): one line of a log, of bounded length, whatever the peer sent. A backslash is kept as
     * it is: the escapes say what was there, they are not meant to be read back.
     *
     * @param text the peer's text, or {@code null} ("null")
     * @param max the most characters of {@code text} kept before "..." (an escape may take the
     *     last one a few characters past it)
     * @return the printable text, never {@code null}
     * @throws IllegalArgumentException if {@code max} is not positive
     */
    public static String printable(Object text, int max) {
        if (max <= 0) {
            throw new IllegalArgumentException("max " + max + ": a printable text keeps at least one character");
        }
        String s = String.valueOf(text);
        StringBuilder sb = new StringBuilder(Math.min(s.length(), max) + 8);
        int i = 0;
        for (; i < s.length() && sb.length() < max; i++) {
            char c = s.charAt(i);
            if (c == '\n') {
                sb.append("\\n");
            } else if (c == '\r') {
                sb.append("\\r");
            } else if (c == '\t') {
                sb.append("\\t");
            } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
                    || Character.getType(c) == Character.FORMAT) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        if (i < s.length()) {
            if (Character.isHighSurrogate(s.charAt(i - 1)) && sb.length() > 0
                    && sb.charAt(sb.length() - 1) == s.charAt(i - 1)) {
                sb.setLength(sb.length() - 1);  // not half a character before the cut
            }
            sb.append("...");
        }
        return sb.toString();
    }
}
