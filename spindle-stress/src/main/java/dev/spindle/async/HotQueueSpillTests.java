/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.queue.Injector;
import java.util.IdentityHashMap;
import java.util.Map;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A HYBRID worker's pick from its hot queue against a watcher's spill of it (see "The lock, and
 * the spill" in {@link HotQueue}'s overview): the owner takes the lock, polls one cell and
 * releases; the watcher tries the lock and, if it gets it, moves every cell to the owner's wake
 * channel. Each cell must end in exactly one place (picked, spilled, or still queued), and the
 * heap must be whole for whichever thread comes second: a cell lost or run twice here is a task
 * that never runs or runs twice. The test runs the runtime's own classes on bare cells.
 */
@JCStressTest
@Description("An owner's locked pick from its hot queue vs a watcher's spill of it.")
@Outcome(id = "1, 1, 2", expect = ACCEPTABLE, desc = "the owner picked one, then the watcher spilled the other")
@Outcome(id = "0, 2, 2", expect = ACCEPTABLE, desc = "the watcher spilled both first; the owner found the queue empty")
@Outcome(id = "1, -1, 2", expect = ACCEPTABLE, desc = "the owner held the lock: the watcher gave up; one cell stays queued")
@Outcome(expect = FORBIDDEN, desc = "a cell lost or in two places, or a spill of a queue the owner was picking from")
@State
public class HotQueueSpillTests {

    private final HotQueue hot = new HotQueue(2);
    private final Injector<TaskCell<?>> wakeChannel = new Injector<>();
    private final TaskCell<?> a = new TaskCell<>(null, cx -> Poll.ready(1));
    private final TaskCell<?> b = new TaskCell<>(null, cx -> Poll.ready(2));
    private TaskCell<?> picked;

    public HotQueueSpillTests() {
        hot.lock();
        hot.add(a);
        hot.add(b);
        hot.unlock();
    }

    @Actor
    public void owner(III_Result r) {
        hot.lock();
        try {
            picked = hot.poll();
        } finally {
            hot.unlock();
        }
        r.r1 = picked == null ? 0 : 1;
    }

    @Actor
    public void watcher(III_Result r) {
        if (hot.tryLock()) {
            try {
                r.r2 = hot.spillTo(wakeChannel);
            } finally {
                hot.unlock();
            }
        } else {
            r.r2 = -1;
        }
    }

    /** r3: the cells found in one place each (picked, spilled, queued); -1 if one is in two. */
    @Arbiter
    public void count(III_Result r) {
        Map<TaskCell<?>, Boolean> seen = new IdentityHashMap<>();
        boolean twice = false;
        if (picked != null) {
            seen.put(picked, true);
        }
        for (TaskCell<?> c; (c = wakeChannel.poll()) != null; ) {
            twice |= seen.put(c, true) != null;
        }
        hot.lock();
        for (TaskCell<?> c; (c = hot.poll()) != null; ) {
            twice |= seen.put(c, true) != null;
        }
        hot.unlock();
        r.r3 = twice ? -1 : seen.size();
    }
}
