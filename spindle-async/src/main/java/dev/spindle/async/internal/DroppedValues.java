/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The resources of this library that an operation hands out as its task's value, whose receiver
 * then owns them and alone can close them: a connection that {@code AsyncTcpListener.accept} or
 * {@code AsyncTcpStream.connect} made. When the runtime drops such a value, because the task's
 * handle was cancelled after the task's last look at its waker and before the runtime recorded
 * the value (see {@code JoinHandle.cancel}), nobody will ever receive it, so the runtime closes
 * it here: kept open, the socket leaked, and its peer waited for good. The containers that the
 * library itself makes of task values ({@code Async.all}'s list, {@code Async.select}'s
 * selection) register too, and drop the values in them in turn (but one a handle still holds).
 *
 * <p>Not API: the module does not export this package. It lets {@code dev.spindle.async} close
 * what {@code dev.spindle.async.io} hands out without depending on that package, and without a
 * supertype on the public classes. Each such class registers itself when it is initialised, so
 * before any instance exists. Only the library's own final classes register, never a user's
 * (a user's value, a list of its own, say, may be shared with others).
 */
public final class DroppedValues {

    /** Closers by exact class; replaced whole (copy on write), read without a lock. */
    private static volatile Map<Class<?>, Consumer<Object>> closers = Map.of();

    private DroppedValues() {
    }

    /**
     * Has the runtime close a dropped value of class {@code type} (exactly: register final
     * classes) with {@code close}, which should not throw.
     *
     * @param type the class of the resource
     * @param close closes one
     * @param <T> the class of the resource
     */
    public static synchronized <T> void closeWhenDropped(Class<T> type, Consumer<? super T> close) {
        Map<Class<?>, Consumer<Object>> m = new HashMap<>(closers);
        m.put(type, v -> close.accept(type.cast(v)));
        closers = Map.copyOf(m);
    }

    /**
     * Closes {@code value}, which the runtime drops, if it is a registered resource; does nothing
     * for any other value (or {@code null}).
     *
     * @param value the dropped value
     */
    public static void dropped(Object value) {
        if (value != null) {
            Consumer<Object> close = closers.get(value.getClass());
            if (close != null) {
                close.accept(value);
            }
        }
    }
}
