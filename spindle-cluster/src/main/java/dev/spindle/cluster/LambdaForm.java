/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.Serializable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Method;
import java.util.Objects;

/**
 * The compact form of a serialisable lambda whose captured values are all scalars
 * ({@link ValueCodec#writeScalar}): the most common task function, {@code args -> v + 1}, written
 * as the fields of its {@link SerializedLambda} without running {@link java.io.ObjectOutputStream}
 * and read back without {@link java.io.ObjectInputStream}. Java serialisation of such a lambda
 * was the largest cost left on both ends of a task's trip (a stream with its class descriptors,
 * made and parsed per task); this form costs a few strings and the captured values.
 *
 * <h2>What is written</h2>
 *
 * <p>The {@link SerializedLambda} the lambda's own {@code writeReplace} returns (the object Java
 * serialisation would write instead of the lambda): capturing class, functional interface class,
 * method name and signature, implementation method kind, class, name and signature,
 * instantiated method type, then the captured values, each a scalar tag and payload. A lambda
 * this class cannot open (its {@code writeReplace} inaccessible, e.g. in a named module that
 * does not open its package), or one that captures anything but a scalar, is not written here:
 * {@link ValueCodec} Java-serialises it as before. Only immutable scalars are taken, so that
 * reading the captured values one by one loses no sharing that one stream would have kept.
 *
 * <h2>Why reading it is exactly as strict as reading the Java stream</h2>
 *
 * <p>Reading a lambda's Java stream consults the allow-list filter for {@link SerializedLambda},
 * for the capturing class (a {@code Class} field of it), for the captured-values array and for
 * each captured value's class, and then lets the capturing class's compiler-generated
 * {@code $deserializeLambda$} decide whether the descriptor names one of the serialisable
 * lambdas compiled into it (anything else is refused there). {@link #read} asks the same filter
 * about the same classes, in the same order, before it initialises or calls anything, and then
 * calls the same {@code $deserializeLambda$}. Every string and count is bounded before use; the
 * capturing class is loaded without initialisation, as {@code ObjectInputStream} loads it, so a
 * refused class runs no code. Where {@code $deserializeLambda$} cannot be reached here, the
 * {@link SerializedLambda} goes through a local Java stream and the filter once more, which is
 * slower and no weaker.
 */
final class LambdaForm {

    /** A JVM method takes at most 255 argument slots, so a lambda captures no more values. */
    static final int MAX_CAPTURED = 255;

    /** Per class: its {@code writeReplace}, if it is a serialisable lambda this class can open; else null. */
    private static final ClassValue<MethodHandle> WRITE_REPLACE = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            if (!type.isHidden() || !Serializable.class.isAssignableFrom(type)) {
                return null;                  // not a lambda: Java serialisation as before
            }
            return opened(type, "writeReplace");
        }
    };

    /** Per capturing class: its {@code $deserializeLambda$}, if this class can reach it; else null. */
    private static final ClassValue<MethodHandle> DESERIALIZE = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            return opened(type, "$deserializeLambda$", SerializedLambda.class);
        }
    };

    private LambdaForm() {
    }

    private static MethodHandle opened(Class<?> type, String name, Class<?>... parameters) {
        try {
            Method m = type.getDeclaredMethod(name, parameters);
            m.setAccessible(true);
            return MethodHandles.lookup().unreflect(m);
        } catch (ReflectiveOperationException | RuntimeException cannotOpen) {
            return null;                      // not there, or a module that does not open it
        }
    }

    /**
     * Writes {@code value}'s fields (not a tag) if it is a serialisable lambda this class can open
     * and all its captured values are scalars; otherwise writes nothing.
     *
     * @param out the writer to append to
     * @param value any object, not {@code null}
     * @return whether the lambda was written
     */
    static boolean write(WireWriter out, Object value) {
        MethodHandle writeReplace = WRITE_REPLACE.get(value.getClass());
        if (writeReplace == null) {
            return false;
        }
        Object replaced;
        try {
            replaced = writeReplace.invoke(value);
        } catch (Throwable e) {
            return false;                     // Java serialisation will report it as it would have
        }
        if (!(replaced instanceof SerializedLambda s)) {
            return false;
        }
        int n = s.getCapturedArgCount();
        for (int i = 0; i < n; i++) {
            if (!ValueCodec.isScalar(s.getCapturedArg(i))) {
                return false;                 // checked before a byte is written
            }
        }
        out.string(s.getCapturingClass()).string(s.getFunctionalInterfaceClass())
                .string(s.getFunctionalInterfaceMethodName()).string(s.getFunctionalInterfaceMethodSignature())
                .u8(s.getImplMethodKind()).string(s.getImplClass()).string(s.getImplMethodName())
                .string(s.getImplMethodSignature()).string(s.getInstantiatedMethodType()).varLong(n);
        for (int i = 0; i < n; i++) {
            ValueCodec.writeScalar(out, s.getCapturedArg(i));
        }
        return true;
    }

    /**
     * Reads what {@link #write} wrote and makes the lambda, through {@code filter} as a Java
     * stream of it would be read (see the class comment).
     *
     * @param in the input, positioned after the tag
     * @param filter the allow-list
     * @param streamBytes the length of the whole value, as the filter is told of a Java stream's
     * @return the lambda
     * @throws InvalidClassException if the filter refuses a class, as {@code ObjectInputStream}
     *         reports it
     * @throws SecurityException if the fields are malformed or over a bound ("malformed
     *         frame"), or the capturing class is unknown, cannot be initialised here or has no
     *         such lambda ("unreadable payload")
     */
    static Object read(WireReader in, ObjectInputFilter filter, long streamBytes) throws InvalidClassException {
        Objects.requireNonNull(filter, "filter");
        String capturing = name(in, "capturing class");
        String interfaceClass = name(in, "functional interface class");
        String interfaceMethod = name(in, "functional interface method");
        String interfaceSignature = name(in, "functional interface signature");
        int kind = in.u8();
        if (kind < 1 || kind > 9) {           // MethodHandleInfo.REF_getField .. REF_invokeInterface
            throw WireReader.malformed("lambda implementation kind " + kind);
        }
        String implClass = name(in, "implementation class");
        String implMethod = name(in, "implementation method");
        String implSignature = name(in, "implementation signature");
        String instantiated = name(in, "instantiated method type");
        int n = in.count(MAX_CAPTURED, 1, "captured value");
        Object[] captured = new Object[n];
        for (int i = 0; i < n; i++) {
            captured[i] = ValueCodec.readScalar(in);
        }
        Class<?> capturingClass;
        try {
            capturingClass = Class.forName(capturing.replace('/', '.'), false, loader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new SecurityException("unreadable payload: " + e);
        }
        // the filter's questions, in the order ObjectInputStream asks them of this lambda's stream
        check(filter, SerializedLambda.class, -1, 1, 1, streamBytes);
        check(filter, capturingClass, -1, 2, 2, streamBytes);
        check(filter, Object[].class, n, 2, 3, streamBytes);
        for (int i = 0; i < n; i++) {
            if (captured[i] != null) {
                check(filter, captured[i].getClass(), -1, 3, 4 + i, streamBytes);
            }
        }
        SerializedLambda s = new SerializedLambda(capturingClass, interfaceClass, interfaceMethod, interfaceSignature,
                kind, implClass, implMethod, implSignature, instantiated, captured);
        MethodHandle deserialize;
        try {
            deserialize = DESERIALIZE.get(capturingClass);
        } catch (LinkageError e) {            // a type its methods name is missing here
            throw new SecurityException("unreadable payload: " + e);
        }
        if (deserialize == null) {
            byte[] stream = JavaSerial.serialize(s);
            return JavaSerial.read(stream, 0, stream.length, filter);
        }
        try {
            return deserialize.invoke(s);
        } catch (LinkageError e) {
            // the capturing class cannot be initialised here (its static initialiser fails, or
            // failed before): unreadable, as an unknown capturing class is, not an Error that
            // escapes the transport's handler with the rest of the frame
            throw new SecurityException("unreadable payload: " + e);
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {               // "Invalid lambda deserialization": no such lambda there
            throw new SecurityException("unreadable payload: " + e);
        }
    }

    private static String name(WireReader in, String what) {
        return in.nonNullString(MessageCodec.MAX_NAME_BYTES, what);
    }

    private static ClassLoader loader() {
        ClassLoader l = LambdaForm.class.getClassLoader();
        return l != null ? l : ClassLoader.getSystemClassLoader();
    }

    private static void check(ObjectInputFilter filter, Class<?> type, long arrayLength, long depth, long references,
                              long streamBytes) throws InvalidClassException {
        ObjectInputFilter.Status status = filter.checkInput(new ObjectInputFilter.FilterInfo() {
            @Override
            public Class<?> serialClass() {
                return type;
            }

            @Override
            public long arrayLength() {
                return arrayLength;
            }

            @Override
            public long depth() {
                return depth;
            }

            @Override
            public long references() {
                return references;
            }

            @Override
            public long streamBytes() {
                return streamBytes;
            }
        });
        if (status == null || status == ObjectInputFilter.Status.REJECTED) {      // as ObjectInputStream treats them
            throw new InvalidClassException(type.getName(), "filter status: REJECTED");
        }
    }
}
