/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The JVM-wide group opens its reactors after the first one ({@link ReactorGroup#openShared}).
 * A selector that cannot be opened leaves the group smaller; a reactor whose thread cannot start
 * throws an error, and the reactors opened before it must not stay behind: they belonged to no
 * group, and each later call of {@code shared()} opened another set, leaving their threads and
 * selectors running for the life of the JVM.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SharedGroupOpenFailureTest {

    @Test
    void anErrorFromTheFourthReactorClosesTheTwoOpenedAfterTheFirst() throws Exception {
        Reactor first = Reactor.openDriven();
        List<Reactor> opened = new ArrayList<>();
        ReactorGroup.Opener opener = () -> {
            if (opened.size() == 2) {
                throw new OutOfMemoryError("unable to create native thread (injected)");
            }
            Reactor r = new Reactor(Selector.open(), "shared-open-failure-test-" + opened.size(), false);
            opened.add(r);
            return r;
        };
        try {
            assertThatThrownBy(() -> ReactorGroup.openShared(first, 4, opener))
                    .isInstanceOf(OutOfMemoryError.class)
                    .hasMessageContaining("injected");
            assertThat(opened).hasSize(2);
            assertThat(opened).as("the reactors opened before the error").allMatch(Reactor::isClosed);
            assertThat(first.isClosed()).as("the first reactor is the caller's").isFalse();
        } finally {
            for (Reactor r : opened) {
                r.close();
            }
            first.close();
        }
    }

    @Test
    void aSelectorThatCannotOpenLeavesTheGroupSmallerWithTheReactorsThatOpened() throws Exception {
        Reactor first = Reactor.openDriven();
        List<Reactor> opened = new ArrayList<>();
        ReactorGroup.Opener opener = () -> {
            if (opened.size() == 2) {
                throw new IOException("too many open files (injected)");
            }
            Reactor r = Reactor.openDriven();
            opened.add(r);
            return r;
        };
        try {
            Reactor[] rs = ReactorGroup.openShared(first, 4, opener);
            assertThat(rs).containsExactly(first, opened.get(0), opened.get(1));
            assertThat(rs).noneMatch(Reactor::isClosed);
        } finally {
            for (Reactor r : opened) {
                r.close();
            }
            first.close();
        }
    }

    @Test
    void allOpenedIsTheWholeGroup() throws Exception {
        Reactor first = Reactor.openDriven();
        List<Reactor> opened = new ArrayList<>();
        ReactorGroup.Opener opener = () -> {
            Reactor r = Reactor.openDriven();
            opened.add(r);
            return r;
        };
        try {
            assertThat(ReactorGroup.openShared(first, 3, opener)).containsExactly(first, opened.get(0), opened.get(1));
            assertThat(ReactorGroup.openShared(first, 1, opener)).containsExactly(first);
            assertThat(opened).hasSize(2);
        } finally {
            for (Reactor r : opened) {
                r.close();
            }
            first.close();
        }
    }
}
