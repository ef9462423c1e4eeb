/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Bytes that a set of processes has sent over TCP: the kernel's {@code bytes_sent} (from
 * {@code tcp_info}, as {@code ss -tinp} prints it) summed over the established sockets those
 * processes hold. Read before and after a run, the difference is every byte the workers sent
 * (values, control messages, heartbeats), measured the same way for Spindle's worker JVMs and
 * Dask's worker processes (dask_bench.py reads it with the same command). Connections opened and
 * closed between the two readings are missed. Linux only; needs {@code ss} (iproute2), else no
 * figure.
 */
public final class TcpBytes {

    private static final Pattern PID = Pattern.compile("pid=(\\d+)");
    private static final Pattern SENT = Pattern.compile("\\bbytes_sent:(\\d+)");

    private TcpBytes() {
    }

    /**
     * Bytes sent so far over the established TCP sockets of {@code pids}; 0 for none; empty where
     * {@code ss} cannot be run (not Linux, no iproute2), so a benchmark reports no figure rather
     * than failing.
     *
     * @throws IOException if {@code ss} runs but fails
     */
    public static OptionalLong sentBy(Set<Long> pids) throws IOException, InterruptedException {
        if (pids.isEmpty()) {
            return OptionalLong.of(0);
        }
        Process ss;
        try {
            ss = new ProcessBuilder("ss", "-tinpH", "state", "established").redirectErrorStream(true).start();
        } catch (IOException e) {
            return OptionalLong.empty();                       // no ss on this machine
        }
        String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ss.waitFor(30, TimeUnit.SECONDS) || ss.exitValue() != 0) {
            ss.destroyForcibly();
            throw new IOException("ss -tinp failed: " + out.strip());
        }
        return OptionalLong.of(parse(out, pids));
    }

    /** Sums {@code bytes_sent} of the sockets in {@code ss -tinpH} output that one of {@code pids} holds. */
    static long parse(String ssOutput, Set<Long> pids) {
        long total = 0;
        boolean owned = false;
        for (String line : ssOutput.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {       // a socket; its tcp_info follows
                owned = false;
                Matcher m = PID.matcher(line);
                while (m.find()) {
                    owned |= pids.contains(Long.parseLong(m.group(1)));
                }
            } else if (owned) {
                Matcher m = SENT.matcher(line);
                if (m.find()) {
                    total += Long.parseLong(m.group(1));
                }
            }
        }
        return total;
    }
}
