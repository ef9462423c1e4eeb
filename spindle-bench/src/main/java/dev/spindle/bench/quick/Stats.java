/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import java.util.Arrays;
import java.util.List;

/**
 * Summary of a sample: median, quartiles and extremes.
 *
 * @param n number of values
 * @param median the median
 * @param q1 the first quartile
 * @param q3 the third quartile
 * @param min the smallest value
 * @param max the largest value
 */
public record Stats(int n, double median, double q1, double q3, double min, double max) {

    /** An empty sample: every statistic is NaN. */
    public static final Stats EMPTY = new Stats(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

    /**
     * Summarizes {@code values} (quartiles by linear interpolation).
     *
     * @throws IllegalArgumentException if a value is NaN: NaN sorts after every number, so the
     *     figures would come from the other values shifted a place (1, NaN, 3 gave a median of 3)
     *     and look sound; a caller leaves an undefined value out and says so
     * @throws NullPointerException if a value is null
     */
    public static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return EMPTY;
        }
        double[] v = new double[values.size()];
        for (int i = 0; i < v.length; i++) {
            Double x = values.get(i);
            if (x == null) {
                throw new NullPointerException("value " + (i + 1) + " of " + v.length + " is null");
            }
            if (Double.isNaN(x)) {
                throw new IllegalArgumentException("value " + (i + 1) + " of " + v.length
                        + " is NaN: a statistic over it would be wrong");
            }
            v[i] = x;
        }
        Arrays.sort(v);
        return new Stats(v.length, quantile(v, 0.5), quantile(v, 0.25), quantile(v, 0.75), v[0], v[v.length - 1]);
    }

    static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = (int) Math.ceil(pos);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
    }

    /** Half the interquartile range as a fraction of the median ({@code ±} this much). */
    public double halfIqrFraction() {
        return median == 0 ? Double.NaN : (q3 - q1) / 2 / median;
    }
}
