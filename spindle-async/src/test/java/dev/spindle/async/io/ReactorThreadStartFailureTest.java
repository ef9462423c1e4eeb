/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reactor opens its selector before it starts its thread, and starting a thread can fail
 * ("unable to create native thread"). The caller then gets the error and no reactor to close, so
 * the reactor must close its selector itself, and a group that was opening it must close the
 * reactors it had opened before: otherwise each failed open left an epoll instance (and, in a
 * group, running selector threads) behind for the life of the JVM.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReactorThreadStartFailureTest {

    private static final Consumer<Thread> CANNOT_START = t -> {
        throw new OutOfMemoryError("unable to create native thread (injected)");
    };

    @Test
    void aReactorWhoseThreadCannotStartClosesItsSelector() throws Exception {
        Selector selector = Selector.open();
        try {
            assertThatThrownBy(() -> new Reactor(selector, "reactor-start-failure-test", false, CANNOT_START))
                    .isInstanceOf(OutOfMemoryError.class)
                    .hasMessageContaining("injected");
            assertThat(selector.isOpen()).as("the selector of a reactor nobody got").isFalse();
        } finally {
            selector.close();
        }
    }

    @Test
    void aGroupWhoseThirdReactorCannotStartClosesTheTwoItOpened() throws Exception {
        List<Reactor> opened = new ArrayList<>();
        List<Selector> selectors = new ArrayList<>();
        ReactorGroup.Opener opener = () -> {
            Selector s = Selector.open();
            selectors.add(s);
            String name = "group-start-failure-test-" + selectors.size();
            if (selectors.size() < 3) {
                Reactor r = new Reactor(s, name, false);
                opened.add(r);
                return r;
            }
            return new Reactor(s, name, false, CANNOT_START);
        };
        try {
            assertThatThrownBy(() -> ReactorGroup.open(3, opener))
                    .isInstanceOf(OutOfMemoryError.class)
                    .hasMessageContaining("injected");
            assertThat(opened).hasSize(2);
            assertThat(opened).as("the reactors opened before the failure").allMatch(Reactor::isClosed);
            assertThat(selectors).as("their selectors, and the failed one's").noneMatch(Selector::isOpen);
        } finally {
            for (Reactor r : opened) {
                r.close();
            }
        }
    }
}
