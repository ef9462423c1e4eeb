/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads the JSON the benchmark commands print ({@code --json}), so that {@code --forks} can
 * combine the reports of several JVMs without a JSON library: objects become
 * {@link LinkedHashMap}s (member order kept), arrays {@link List}s, numbers {@link Double}s,
 * and {@code true}, {@code false} and {@code null} themselves. The text comes from a child JVM
 * this process started, but it is still bounded: at most {@link #MAX_LENGTH} characters and
 * {@link #MAX_DEPTH} nested containers, so a wrong or runaway child cannot exhaust the stack or
 * the heap; anything else malformed is an {@link IllegalArgumentException} naming the offset.
 */
final class MiniJson {

    /** The longest text read: far above any report (a few kilobytes). */
    static final int MAX_LENGTH = 16 << 20;
    /** The deepest nesting of objects and arrays read; reports nest four deep. */
    static final int MAX_DEPTH = 32;

    /** A JSON number: an optional minus, an integer part without leading zeros, a fraction, an exponent. */
    private static final Pattern NUMBER = Pattern.compile("-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]+)?");

    private final String text;
    private int pos;

    private MiniJson(String text) {
        this.text = text;
    }

    /**
     * Parses one JSON value, with nothing but white space after it.
     *
     * @throws IllegalArgumentException if the text is not JSON, or is longer or deeper than the
     *     bounds
     */
    static Object parse(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("JSON text of " + text.length() + " characters, more than " + MAX_LENGTH);
        }
        MiniJson p = new MiniJson(text);
        Object v = p.value(0);
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("text after the value");
        }
        return v;
    }

    private Object value(int depth) {
        skipSpace();
        if (pos >= text.length()) {
            throw error("a value expected, found the end");
        }
        char c = text.charAt(pos);
        switch (c) {
            case '{':
                return object(depth + 1);
            case '[':
                return array(depth + 1);
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("unexpected '" + c + "'");
        }
    }

    private Map<String, Object> object(int depth) {
        checkDepth(depth);
        pos++;                                 // '{'
        Map<String, Object> m = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            pos++;
            return m;
        }
        for (;;) {
            skipSpace();
            if (peek() != '"') {
                throw error("a member name expected");
            }
            String key = string();
            skipSpace();
            expect(':');
            m.put(key, value(depth));
            skipSpace();
            char c = next();
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                throw error("',' or '}' expected");
            }
        }
    }

    private List<Object> array(int depth) {
        checkDepth(depth);
        pos++;                                 // '['
        List<Object> list = new ArrayList<>();
        skipSpace();
        if (peek() == ']') {
            pos++;
            return list;
        }
        for (;;) {
            list.add(value(depth));
            skipSpace();
            char c = next();
            if (c == ']') {
                return list;
            }
            if (c != ',') {
                throw error("',' or ']' expected");
            }
        }
    }

    private String string() {
        pos++;                                 // '"'
        StringBuilder sb = new StringBuilder();
        for (;;) {
            char c = next();
            if (c == '"') {
                return sb.toString();
            }
            if (c < 0x20) {
                throw error("a control character in a string");
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'b' -> sb.append('\b');
                case 'f' -> sb.append('\f');
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("a short \\u escape");
                    }
                    // four ASCII hex digits, read one by one: Integer.parseInt would also take a sign
                    // (and Character.digit other scripts' digits)
                    int code = 0;
                    for (int i = 0; i < 4; i++) {
                        int digit = "0123456789abcdef".indexOf(Character.toLowerCase(text.charAt(pos + i)));
                        if (digit < 0) {
                            throw error("a bad \\u escape");
                        }
                        code = code * 16 + digit;
                    }
                    sb.append((char) code);
                    pos += 4;
                }
                default -> throw error("a bad escape \\" + e);
            }
        }
    }

    private Double number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String number = text.substring(start, pos);
        // JSON's grammar, not Double.valueOf's, which also takes 01, 1. and 2.e3
        if (!NUMBER.matcher(number).matches()) {
            pos = start;
            throw error("a bad number");
        }
        return Double.valueOf(number);
    }

    private Object literal(String word, Object v) {
        if (!text.startsWith(word, pos)) {
            throw error("unexpected '" + text.charAt(pos) + "'");
        }
        pos += word.length();
        return v;
    }

    private void checkDepth(int depth) {
        if (depth > MAX_DEPTH) {
            throw error("nested deeper than " + MAX_DEPTH);
        }
    }

    private void skipSpace() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            pos++;
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private char next() {
        if (pos >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(pos++);
    }

    private void expect(char c) {
        if (next() != c) {
            pos--;
            throw error("'" + c + "' expected");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
    }
}
