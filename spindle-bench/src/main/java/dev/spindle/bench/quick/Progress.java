/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress of a harness run, shown on a stream (stderr). On a terminal it is one line redrawn
 * in place with a bar; elsewhere (a log file, a pipe) it is a plain line per phase or round, so
 * logs stay readable. {@link #none()} shows nothing.
 */
public abstract class Progress {

    /** Called once with the number of steps the run will take. */
    public abstract void start(int totalSteps);

    /** A new phase began ("warm-up round 2/3"). */
    public abstract void phase(String phase);

    /**
     * A step starts; {@code what} says what it runs. Steps run one after another, so every
     * earlier step is complete.
     */
    public abstract void step(String what);

    /** The run is over: clear the bar or print a last line. */
    public abstract void finish();

    /** A redrawn bar with carriage returns, for a terminal. */
    public static Progress bar(PrintStream out) {
        return new Bar(out);
    }

    /** One plain line per phase. */
    public static Progress lines(PrintStream out) {
        return new Lines(out);
    }

    /** Nothing at all. */
    public static Progress none() {
        return new Progress() {
            @Override
            public void start(int totalSteps) {
            }

            @Override
            public void phase(String phase) {
            }

            @Override
            public void step(String what) {
            }

            @Override
            public void finish() {
            }
        };
    }

    private static final class Bar extends Progress {
        private static final int WIDTH = 30;
        private final PrintStream out;
        private final long t0 = System.nanoTime();
        private int total = 1;
        private int done;
        private String phase = "";
        private int lastLength;

        Bar(PrintStream out) {
            this.out = out;
        }

        @Override
        public void start(int totalSteps) {
            total = Math.max(1, totalSteps);
            draw("");
        }

        @Override
        public void phase(String p) {
            phase = p;
            draw("");
        }

        @Override
        public void step(String what) {
            draw(what);                        // shows the steps completed before this one
            done = Math.min(total, done + 1);
        }

        private void draw(String what) {
            int filled = (int) ((long) WIDTH * done / total);
            String line = String.format(Locale.ROOT, "[%s%s] %3d%% %4.0fs  %s %s",
                    "#".repeat(filled), ".".repeat(WIDTH - filled), 100L * done / total,
                    (System.nanoTime() - t0) / 1e9, phase, what);
            if (line.length() > 100) {
                line = line.substring(0, 100);
            }
            int pad = Math.max(0, lastLength - line.length());
            out.print("\r" + line + " ".repeat(pad));
            out.flush();
            lastLength = line.length();
        }

        @Override
        public void finish() {
            out.print("\r" + " ".repeat(lastLength) + "\r");
            out.flush();
        }
    }

    private static final class Lines extends Progress {
        private final PrintStream out;
        private final long t0 = System.nanoTime();
        private int total = 1;
        private int done;

        Lines(PrintStream out) {
            this.out = out;
        }

        @Override
        public void start(int totalSteps) {
            total = Math.max(1, totalSteps);
        }

        @Override
        public void phase(String phase) {
            out.printf(Locale.ROOT, "[%3d%% %4.0fs] %s%n", 100L * done / total, (System.nanoTime() - t0) / 1e9, phase);
            out.flush();
        }

        @Override
        public void step(String what) {
            done = Math.min(total, done + 1);
        }

        @Override
        public void finish() {
            out.printf(Locale.ROOT, "[100%% %4.0fs] done%n", (System.nanoTime() - t0) / 1e9);
            out.flush();
        }
    }
}
