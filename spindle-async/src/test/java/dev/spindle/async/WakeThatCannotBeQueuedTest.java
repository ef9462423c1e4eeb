/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.queue.Injector;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A wake-up moves its cell from IDLE to SCHEDULED and then queues it, to its owner's wake channel
 * (an injector, which allocates a segment every 1,024 cells) or the shared injector. An
 * {@link OutOfMemoryError} from that segment left the cell SCHEDULED and in no queue: later wakes
 * found it scheduled and queued nothing, so the task was never polled again and its handle never
 * completed, while the waker's caller (a promise's {@code complete}, a channel's send) had
 * succeeded; a cancel that had to queue the cell to retire it lost it the same way, its task never
 * withdrawn. Such a cell now goes on the runtime's list of stranded cells, which allocates nothing
 * and which the workers take from as they take from the injector.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WakeThatCannotBeQueuedTest {

    @AfterEach
    void clearSeam() throws ReflectiveOperationException {
        beforeNewSegment(null);
    }

    /**
     * Sets the injector's test seam, run before it allocates a segment (package-private in the
     * core, whose test-jar shares only its testkit; the tests run on the class path).
     */
    private static void beforeNewSegment(Runnable hook) throws ReflectiveOperationException {
        Field f = Injector.class.getDeclaredField("beforeNewSegment");
        f.setAccessible(true);
        f.set(null, hook);
    }

    /** The next segment any injector allocates throws, once; the flag reads false once it has. */
    private static AtomicBoolean failNextSegment() throws ReflectiveOperationException {
        AtomicBoolean armed = new AtomicBoolean(true);
        beforeNewSegment(() -> {
            if (armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room for an injector segment (thrown by the test)");
            }
        });
        return armed;
    }

    /** Waits until {@code cell} is IDLE with a waker registered on {@code p}; false if that never came. */
    private static boolean waitsOn(TaskCell<?> cell, AsyncPromise<?> p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (p.waiterCount() == 0 || cell.state() != TaskCell.IDLE) {
            if (cell.isDone() || System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(0, 100_000);
        }
        return true;
    }

    @Test
    void aTaskWokenWhenItsWakeChannelCannotGrowIsStillPolled() throws Exception {
        // more wakes from outside than the wake channel's first segment holds: one needs a new one
        int n = 3 * 1024;
        List<AsyncPromise<Integer>> promises = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            promises.add(new AsyncPromise<>());
        }
        ConcurrentLinkedQueue<Throwable> strays = new ConcurrentLinkedQueue<>();
        Thread.UncaughtExceptionHandler before = Thread.currentThread().getUncaughtExceptionHandler();
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> strays.add(e));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Integer> h = rt.spawn(Async.loop(0, (Integer i) -> i == n
                    ? Async.ready(Async.Step.<Integer, Integer>done(i))
                    : Async.map(promises.get(i), x -> Async.Step.<Integer, Integer>next(i + 1))));
            TaskCell<?> cell = (TaskCell<?>) h;
            AtomicBoolean armed = failNextSegment();
            for (int i = 0; i < n; i++) {
                AsyncPromise<Integer> p = promises.get(i);
                // each completion finds the task IDLE, so its wake queues the cell
                assertThat(waitsOn(cell, p))
                        .as("the task awaits promise %d (the segment failed: %s; strays: %s)", i, !armed.get(), strays)
                        .isTrue();
                assertThat(p.complete(i)).isTrue();
            }
            assertThat(armed).as("a wake's segment allocation failed").isFalse();
            assertThat(h.get(20, TimeUnit.SECONDS)).isEqualTo(n);
        } finally {
            Thread.currentThread().setUncaughtExceptionHandler(before);
        }
    }

    @Test
    void aTaskCancelledWhenItsWakeChannelCannotGrowIsStillWithdrawn() throws Exception {
        int n = 1024;                          // wakes that fill the wake channel's first segment
        List<AsyncPromise<Integer>> promises = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            promises.add(new AsyncPromise<>());
        }
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Thread.UncaughtExceptionHandler before = Thread.currentThread().getUncaughtExceptionHandler();
        Thread.currentThread().setUncaughtExceptionHandler((t, e) -> { });
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            // awaits every promise (each completion a wake queued to the wake channel), then a receive
            JoinHandle<Integer> h = rt.spawn(Async.then(Async.loop(0, (Integer i) -> i == n
                    ? Async.ready(Async.Step.<Integer, Integer>done(i))
                    : Async.map(promises.get(i), x -> Async.Step.<Integer, Integer>next(i + 1))),
                    done -> ch.receive()));
            TaskCell<?> cell = (TaskCell<?>) h;
            for (int i = 0; i < n; i++) {
                assertThat(waitsOn(cell, promises.get(i))).as("the task awaits promise %d", i).isTrue();
                promises.get(i).complete(i);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (cell.state() != TaskCell.IDLE || cell.wakeCount() < n) {  // waiting in the receive
                assertThat(System.nanoTime() - deadline).as("the task waits in its receive").isNegative();
                Thread.sleep(0, 100_000);
            }
            AtomicBoolean armed = failNextSegment();
            Throwable cancelThrew = null;
            try {
                assertThat(h.cancel(false)).isTrue();   // its retirement is queued: the 1,025th wake
            } catch (OutOfMemoryError e) {
                cancelThrew = e;
            }
            assertThat(armed).as("the cancel's segment allocation failed").isFalse();
            // the cancelled task's receive must leave the channel: this value goes to the next receive
            rt.spawn(ch.send(7)).get(20, TimeUnit.SECONDS);
            JoinHandle<Integer> next = rt.spawn(ch.receive());
            assertThat(next.get(20, TimeUnit.SECONDS))
                    .as("the value sent after the cancel (cancel threw: %s)", cancelThrew).isEqualTo(7);
            assertThat(cancelThrew).as("what the cancel threw").isNull();
        } finally {
            Thread.currentThread().setUncaughtExceptionHandler(before);
        }
    }

    @Test
    void aSpillIntoAWakeChannelThatCannotGrowKeepsTheCellsInTheHotQueue() throws Exception {
        Injector<TaskCell<?>> wakeChannel = new Injector<>();
        TaskCell<?> filler = new TaskCell<>(null, cx -> Poll.ready(null));
        for (int i = 0; i < 1024; i++) {       // the first segment full: the next offer needs another
            wakeChannel.offer(filler);
        }
        HotQueue hot = new HotQueue(4);
        TaskCell<?> a = new TaskCell<>(null, cx -> Poll.ready(null));
        TaskCell<?> b = new TaskCell<>(null, cx -> Poll.ready(null));
        hot.add(a);
        hot.add(b);
        AtomicBoolean armed = failNextSegment();
        assertThat(hot.tryLock()).isTrue();
        int moved = -1;
        Throwable spillThrew = null;           // caught here: JUnit ends the test JVM on an OutOfMemoryError
        try {
            moved = hot.spillTo(wakeChannel);  // its first offer fails
        } catch (OutOfMemoryError e) {
            spillThrew = e;
        } finally {
            hot.unlock();
        }
        assertThat(armed).as("the spill's segment allocation failed").isFalse();
        // before: the spill threw with the cell it had taken out of the queue in no queue at all
        assertThat(hot.size()).as("cells left in the hot queue (the spill threw %s)", spillThrew).isEqualTo(2);
        assertThat(spillThrew).isNull();
        assertThat(moved).isZero();
        assertThat(List.of(hot.poll(), hot.poll())).containsExactlyInAnyOrder(a, b);
        assertThat(hot.tryLock()).isTrue();
        hot.add(a);
        try {
            assertThat(hot.spillTo(wakeChannel)).as("the next spill, the channel able to grow").isEqualTo(1);
        } finally {
            hot.unlock();
        }
    }
}
