/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

/**
 * One line of the quick harness's report: a workload (or probe) measured on Spindle and on a
 * {@code ForkJoinPool} mode.
 *
 * @param name the workload or probe
 * @param description what exactly ran, with sizes
 * @param unit the unit of the values ({@code ms}, {@code us}, {@code %core})
 * @param fjpMode which ForkJoinPool mode was compared ({@code fjp} or {@code fjp-async})
 * @param spindle Spindle's samples, one per round (or chunk, or window)
 * @param fjp the ForkJoinPool's samples
 * @param ratio Spindle's advantage: FJP value / Spindle value for these lower-is-better
 *     measurements, so {@code > 1} means Spindle did better. For times it is Spindle throughput
 *     over FJP throughput. NaN where undefined (Spindle's value zero; the note says so).
 * @param ratioSpread the per-round (per-chunk) ratios
 * @param note anything else worth saying, such as parallel efficiency; may be empty
 */
public record Row(String name, String description, String unit, String fjpMode,
        Stats spindle, Stats fjp, double ratio, Stats ratioSpread, String note) {
}
