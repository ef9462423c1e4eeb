/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;

/**
 * {@link MetricsRegressionTest}'s tests on a registry with a filter that renames meters (a common
 * prefix, say): the binders' check for a clash looked the registered meters up by the name they
 * asked for, which the registry no longer holds, so it saw no meter at all. A second live pool of
 * one name silently shared the first's meters, and a pool named like a collected one got the dead
 * meters back.
 */
class MeterFilterRegressionTest extends MetricsRegressionTest {

    MeterFilterRegressionTest() {
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                return id.withName("app." + id.getName());
            }
        });
    }

    @Override
    String registered(String name) {
        return "app." + name;
    }
}
