/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Cancellable;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import dev.spindle.async.internal.DroppedValues;
import dev.spindle.async.internal.GivesBack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * A non-blocking TCP connection whose reads and writes are {@link AsyncTask}s: an operation that
 * would block registers its task's waker with the {@link Reactor} and returns pending.
 *
 * <pre>{@code
 * // connect, send a line, read the reply (one read)
 * ByteBuffer reply = ByteBuffer.allocate(1024);
 * AsyncTask<Integer> talk = Async.then(AsyncTcpStream.connect(new InetSocketAddress("127.0.0.1", port)),
 *         stream -> Async.then(stream.writeAll(ByteBuffer.wrap("hello\n".getBytes())),
 *                 x -> stream.read(reply)));
 * }</pre>
 *
 * <p>Each task returned is one operation, polled until ready. At most one read and one write
 * should be in progress at a time (as with {@link SocketChannel}); a read and a write may
 * proceed concurrently in two tasks. Starting a read or write takes one unit of the poll's
 * budget. I/O errors are thrown from {@code poll} as {@link UncheckedIOException}; after
 * {@link #close()} a waiting operation is woken and fails that way (its cause a
 * {@code ClosedChannelException}).
 *
 * <p><b>Abandoning an operation.</b> A read, write or accept abandoned while it waits (its task
 * cancelled, or timed out) loses nothing: the bytes stay in the socket or the read-ahead buffer
 * for the next read, and readiness wakes every waker registered, so no other task misses it. Its
 * waker stays registered until that readiness or {@link #close()}, which is harmless (a wake of a
 * finished task does nothing). A connect abandoned before it completes closes its socket. A read
 * whose count nobody receives, its task cancelled during the very poll that read the bytes, gives
 * them back to the stream for the next read (see {@link #read}).
 *
 * <p><b>A connection nobody receives.</b> A task whose value is a stream (an accept, a connect,
 * or a task of the caller's that returns one) hands it over to whoever holds its
 * {@link dev.spindle.async.JoinHandle}. If that handle is cancelled during the poll that returns
 * the stream, the runtime drops the value, and then closes the stream: nobody else could ever
 * close it, and its peer would have waited for good. So it does the streams in a dropped value
 * that {@link dev.spindle.async.Async#all} or {@link dev.spindle.async.Async#select} made (the
 * list of results, the selection), except one that a {@code JoinHandle} in them still holds (as it
 * leaves a stream that the task passed on from a handle it awaited). A
 * value of the caller's own that holds a stream (a list, a record) is left alone, since the
 * runtime cannot know who else holds it: a task that may be cancelled as it completes should
 * return the stream itself, or close what it holds when its handle is cancelled.
 */
public final class AsyncTcpStream implements AutoCloseable {

    static {
        // a stream handed out by a task whose handle was cancelled before the runtime recorded
        // it is closed by the runtime (see the class overview); registered before any instance
        DroppedValues.closeWhenDropped(AsyncTcpStream.class, AsyncTcpStream::close);
    }

    /** Bytes the reactor may read ahead of the application. */
    static final int READ_AHEAD_BYTES = 16 * 1024;

    /**
     * Most bytes one read or write moves through a heap buffer (the limit the JDK's blocking
     * sockets use). For a heap buffer the JDK copies everything remaining into a temporary direct
     * buffer of that size and keeps it cached on the calling thread afterwards: a 64 MiB write
     * reserved 64 MiB of direct memory per attempt (failing with an {@link OutOfMemoryError} where
     * the direct memory limit is smaller), copied the whole remainder again at each retry
     * although the socket takes far less, and left each worker that ran one holding the buffer.
     */
    static final int MAX_HEAP_TRANSFER = 128 * 1024;

    /**
     * Run, if set, by a read that moved bytes into its {@code dst}, just before it returns their
     * count: a seam for tests, which cancel the read's task there as another thread could at that
     * moment. Read only once bytes were moved.
     */
    static volatile Runnable afterReadTransfer;

    private final SocketChannel channel;
    private final Reactor reactor;
    private final Reactor.Registration reg;
    private final Inbound inbound = new Inbound();

    /** For tests: the operations this stream's registration asks the selector to watch. */
    int armedInterest() {
        return reg.interest();
    }

    AsyncTcpStream(SocketChannel channel, Reactor reactor) throws IOException {
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        this.channel = channel;
        this.reactor = reactor;
        this.reg = reactor.register(channel);
        reg.setReadAhead(inbound);
    }

    /**
     * What the reactor has read ahead (see {@link Reactor}): bytes, then perhaps the end of the
     * stream or an error. Guarded by {@code reg}'s lock; the buffer is in write mode (its bytes
     * are {@code [0, position)}), allocated at the first read-ahead.
     */
    private final class Inbound implements Reactor.ReadAhead {
        private ByteBuffer buffer;
        private boolean ended;
        private IOException error;
        /**
         * Bytes that reads took and gave back, nobody having received their counts
         * ({@link ReadOp#giveBackUnreceived}), in read mode: they came before everything in
         * {@code buffer} and the socket, so the next read returns them first. {@code null} when
         * there are none, nearly always. A heap buffer of its own rather than the read-ahead
         * buffer: a read into a large buffer may have taken more than that one holds.
         */
        private ByteBuffer givenBack;

        @Override
        public Fill fill() {
            if (ended) {
                return Fill.ENDED;
            }
            if (buffer == null) {
                try {
                    buffer = reactor.takeBuffer(READ_AHEAD_BYTES);
                } catch (OutOfMemoryError e) {
                    // on the selector thread: fail this stream, not the reactor and all it serves
                    error = new IOException("no direct memory for the read-ahead buffer", e);
                    ended = true;
                    return Fill.ENDED;
                }
            }
            if (!buffer.hasRemaining()) {
                return Fill.FULL;
            }
            int n;
            try {
                n = channel.read(buffer);
            } catch (IOException e) {
                error = e;
                ended = true;
                return Fill.ENDED;
            }
            if (n < 0) {
                ended = true;
                return Fill.ENDED;
            }
            if (n == 0) {
                return Fill.NOTHING;
            }
            return buffer.hasRemaining() ? Fill.MORE : Fill.FULL;
        }

        /**
         * The stream is closed: hands the buffer back to the reactor (with the registration's
         * lock held, so no fill or drain is under way). Nothing uses it afterwards: a read checks
         * that the channel is open first, and a fill stops at {@code ended}.
         */
        void release() {
            ended = true;
            givenBack = null;
            if (buffer != null) {
                ByteBuffer b = buffer;
                buffer = null;
                reactor.giveBuffer(b);
            }
        }

        /**
         * Puts {@code bytes} back ahead of every byte not yet read (see {@link #givenBack}); an
         * {@link OutOfMemoryError} leaves the given-back bytes as they were.
         */
        void giveBack(byte[] bytes) {
            ByteBuffer rest = givenBack;
            if (rest == null) {
                givenBack = ByteBuffer.wrap(bytes);
                return;
            }
            // a read of given-back bytes was given back in turn: they came before the rest
            ByteBuffer all = ByteBuffer.allocate(bytes.length + rest.remaining());
            all.put(bytes).put(rest).flip();
            givenBack = all;
        }

        /** Moves as many given-back bytes as fit into {@code dst}; there are some. */
        int drainGivenBack(ByteBuffer dst) {
            ByteBuffer g = givenBack;
            int n = Math.min(g.remaining(), dst.remaining());
            int at = dst.position();
            dst.put(at, g, g.position(), n);
            dst.position(at + n);
            g.position(g.position() + n);
            if (!g.hasRemaining()) {
                givenBack = null;
            }
            return n;
        }

        boolean hasBytes() {
            return buffer != null && buffer.position() > 0;
        }

        /**
         * Moves as many buffered bytes as fit into {@code dst}. An absolute bulk put, where a
         * slice of the buffer would be a ByteBuffer allocated per read on the echo path.
         */
        int drainInto(ByteBuffer dst) {
            buffer.flip();
            int n = Math.min(buffer.remaining(), dst.remaining());
            int at = dst.position();
            dst.put(at, buffer, buffer.position(), n);
            dst.position(at + n);
            buffer.position(buffer.position() + n);
            buffer.compact();
            return n;
        }
    }

    /**
     * A task that connects to {@code remote}, served by the next reactor of the
     * {@linkplain ReactorGroup#shared() shared group}. The address is checked first: a null or
     * non-TCP one starts no reactor of that group.
     *
     * @param remote the address to connect to
     * @return a one-shot task, ready with the connected stream (which the caller closes)
     * @throws IllegalArgumentException if {@code remote} is not an {@link InetSocketAddress}
     * @throws NullPointerException if {@code remote} is null
     */
    public static AsyncTask<AsyncTcpStream> connect(SocketAddress remote) {
        // before the shared group: made on first use, its selector threads run for the JVM's
        // life, and a call that was only ever going to throw started them
        checkRemote(remote);
        return connect(remote, ReactorGroup.shared().next());
    }

    /**
     * A task that connects to {@code remote}; the connection is made at the first poll. If the
     * task is cancelled ({@link Cancellable}) before the connection is made, the socket it opened
     * is closed; so it is if the task's {@link dev.spindle.async.JoinHandle} is cancelled during
     * the poll that would make it (the runtime drops what that poll returns): the connect stays
     * pending, and the runtime's cancel closes the socket; or, if the cancel comes after the
     * connect's last look, the runtime closes the stream it drops. The task looks up no host names: an
     * unresolved {@code remote} (one whose look-up failed, or made by {@link InetSocketAddress#createUnresolved}) fails it with an
     * {@link UncheckedIOException} whose cause is an {@link UnknownHostException}, opening no
     * socket; a refused or failed connection fails it with an {@link UncheckedIOException} too.
     * If {@code reactor} is closed by the first poll, the task fails with an
     * {@link IllegalStateException} saying so, sending nothing to {@code remote}; closed later,
     * before the connection is handed out, the task fails with that exception too, and closes
     * the socket.
     *
     * @param remote the address to connect to
     * @param reactor serves the connection
     * @return a one-shot task, ready with the connected stream (which the caller closes)
     * @throws IllegalArgumentException if {@code remote} is not an {@link InetSocketAddress}
     * @throws NullPointerException if {@code remote} or {@code reactor} is null
     */
    public static AsyncTask<AsyncTcpStream> connect(SocketAddress remote, Reactor reactor) {
        checkRemote(remote);
        Objects.requireNonNull(reactor, "reactor");
        return new ConnectOp(remote, reactor);
    }

    /** Refuses a null or non-TCP {@code remote}, as both {@code connect}s document. */
    private static void checkRemote(SocketAddress remote) {
        Objects.requireNonNull(remote, "remote");
        if (!(remote instanceof InetSocketAddress)) {
            // else the first poll threw the JDK's UnsupportedAddressTypeException, with no message
            throw new IllegalArgumentException("not a TCP address (an InetSocketAddress): " + remote);
        }
    }

    /**
     * A connect in progress. Until it returns the stream, nobody else holds the socket, so an
     * abandoned connect (cancelled, between polls) closes it rather than leave it open and
     * registered until the operating system gives up on the connection.
     */
    private static final class ConnectOp implements AsyncTask<AsyncTcpStream>, Cancellable {
        private final SocketAddress remote;
        private final Reactor reactor;
        private AsyncTcpStream stream;
        private boolean handedOut;

        ConnectOp(SocketAddress remote, Reactor reactor) {
            this.remote = remote;
            this.reactor = reactor;
        }

        @Override
        public Poll<AsyncTcpStream> poll(Context cx) {
            try {
                // Inside the try: a later poll whose waker is null (a hand-written context) or
                // whose expired() throws ended its task with the socket open, connected or
                // connecting, and registered, held by nobody. A first poll opens no socket.
                Waker waker = Reactor.toWaitWith(cx.waker(), SelectionKey.OP_CONNECT);
                if (waker.expired()) {
                    // its task was cancelled during this poll, whose result the runtime drops: a
                    // stream handed out here would stay open for good. Pending instead, so that
                    // the retiring cancel closes the socket (or none is opened), as a receive
                    // served before such a cancel passes its value on
                    return Poll.pending();
                }
                if (stream == null) {
                    if (remote instanceof InetSocketAddress inet && inet.isUnresolved()) {
                        // SocketChannel.connect throws the JDK's UnresolvedAddressException: not
                        // an IOException, and without a message naming the host. No look-up here:
                        // it would block this worker for as long as the resolver takes.
                        throw new UnknownHostException(inet.getHostString()
                                + " (unresolved; connect looks up no host names)");
                    }
                    // Before the socket: on a closed reactor the wait below is refused, and the
                    // connect had already sent its SYN (the peer's backlog got a connection that
                    // was reset at once). A close racing this check still fails the wait.
                    reactor.checkOpen();
                    SocketChannel ch = SocketChannel.open();
                    try {
                        stream = new AsyncTcpStream(ch, reactor);
                        if (ch.connect(remote)) {
                            return handOut(cx);
                        }
                    } catch (IOException | RuntimeException | Error e) {
                        ch.close();
                        throw e;
                    }
                } else if (stream.channel.finishConnect()) {
                    return handOut(cx);
                }
                reactor.await(stream.reg, SelectionKey.OP_CONNECT, cx.waker());
                return Poll.pending();
            } catch (IOException e) {
                if (stream != null) {
                    stream.close();
                }
                throw new UncheckedIOException("connect to " + remote + " failed", e);
            } catch (RuntimeException | Error e) {
                // the reactor refused the wait (closed before or during the connect), or the
                // caller's context threw (an Error too: its waker, no memory): this task fails,
                // and nobody else holds the socket, which would stay open for good
                if (stream != null) {
                    stream.close();
                }
                throw e;
            }
        }

        /**
         * The connection is made. A connect polled again before the selector reported it (any
         * poll without a wake-up: a wake meant for an earlier step of the same task, a timeout's
         * last look) finds it made with {@code OP_CONNECT} still armed, and only readiness
         * dropped that interest. The JDK has epoll watch a connected socket's {@code OP_CONNECT}
         * as writability, always ready, yet reports {@code OP_CONNECT} only while a connection
         * is pending: the key was never selected, never disarmed, and every {@code select}
         * returned at once for as long as the stream stayed open (a selector thread, or the
         * worker driving the reactor, at full CPU). So the interest is dropped here.
         *
         * <p>A connection made after the reactor closed (the close woke this connect, and the
         * handshake had completed meanwhile) is not handed out: the stream could never wait for
         * anything, and its first read or write that had to wait failed with "the reactor is
         * closed". The connect fails with that {@link IllegalStateException} instead, as it
         * would had the close come before its first poll, and {@code poll}'s handler closes the
         * socket that nobody else holds.
         */
        private Poll<AsyncTcpStream> handOut(Context cx) {
            reactor.checkOpen();
            if (stream.reg.disarm(SelectionKey.OP_CONNECT) == Reactor.CHANGED) {
                reactor.interestChanged(stream.reg);
            }
            if (cx.waker().expired()) {
                // cancelled since the look at the start of this poll (during the connect or
                // finishConnect): pending, as there, so that the retiring cancel closes the socket
                return Poll.pending();
            }
            handedOut = true;
            return Poll.ready(stream);
        }

        @Override
        public void cancel() {
            if (stream != null && !handedOut) {
                stream.close();
            }
        }
    }

    /**
     * A task that reads into {@code dst}: ready with the number of bytes read (at least one), or
     * -1 at end of stream, or 0 at once if {@code dst} has no room (on a stream closed here it
     * fails, as every read then does); pending while no bytes are
     * available. Once the stream's reactor is closed, a read still returns the bytes it read
     * ahead and those waiting in the socket; one that would have to wait fails with an
     * {@link IllegalStateException} saying the reactor is closed.
     *
     * <p><b>A count nobody receives.</b> The runtime drops what a poll returns if the task's
     * {@link dev.spindle.async.JoinHandle} is cancelled during that poll (as by another thread
     * just then), and a failed {@link dev.spindle.async.Async#all} or a selection nobody
     * receives drops the values it holds. If that befalls the count of a read that moved bytes
     * into {@code dst}, the read gives the bytes back: they go back to the stream, ahead of any
     * not yet read, and {@code dst}'s position goes back to where the read found it. So the next
     * read returns them, and the reader gets every byte once and in order, as when a read is
     * abandoned while it waits; the handle still reports the cancellation. This holds for a
     * read that is the task spawned, or whose count a task passes on untouched (a {@code then}
     * ending in it, a timeout over it), as for a channel's receive. A task of the caller's that
     * polls the read itself should pass the count on within the poll that returns it: the
     * runtime cannot tell what that task did with the bytes, and leaves them in {@code dst}.
     *
     * @param dst where the bytes go, from its position up to its limit; the task owns it until
     *     ready
     * @return a one-shot task ready with the byte count, {@code -1} at end of stream
     * @throws IllegalArgumentException if {@code dst} is read-only
     * @throws NullPointerException if {@code dst} is null
     */
    public AsyncTask<Integer> read(ByteBuffer dst) {
        Objects.requireNonNull(dst, "dst");
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("dst is a read-only buffer: nothing can be read into it");
        }
        return new ReadOp(dst);
    }

    /**
     * A read in progress. A class of its own (a lambda before) so that it can give back the bytes
     * of a count nobody received ({@link GivesBack}): its last ready poll's count and where in
     * {@code dst} those bytes lie are kept, under the registration's lock.
     */
    private final class ReadOp extends GivesBack<Integer> {
        private final ByteBuffer dst;
        /** Bytes the last poll moved into {@code dst} (0: none, or given back); guarded by reg. */
        private int moved;
        /** {@code dst}'s position before those bytes; guarded by reg. */
        private int movedFrom;

        ReadOp(ByteBuffer dst) {
            this.dst = dst;
        }

        @Override
        public Poll<Integer> poll(Context cx) {
            if (!dst.hasRemaining()) {
                checkNotClosed("read");        // nothing to move, yet a closed stream says so
                return Poll.ready(0);
            }
            if (!cx.consumeBudget()) {
                // a null waker (a hand-written context) is refused as a wait refuses it
                Reactor.toWaitWith(cx.waker(), SelectionKey.OP_READ).wake();
                return Poll.pending();
            }
            int n;
            int change;
            synchronized (reg) {
                if (!channel.isOpen()) {
                    throw new UncheckedIOException("read failed", new ClosedChannelException());
                }
                moved = 0;                     // what this poll moves, if anything, below
                int from = dst.position();
                if (inbound.givenBack != null) {
                    // bytes a read gave back come first; the read-ahead is as it was
                    n = inbound.drainGivenBack(dst);
                    change = Reactor.NO_CHANGE;
                } else if (inbound.hasBytes()) {
                    n = inbound.drainInto(dst);
                    // a full buffer had stopped the read-ahead: there is room again (on a
                    // closed reactor the re-arm is undone at once, and these bytes still count)
                    change = inbound.ended ? Reactor.NO_CHANGE : reg.armLocked(SelectionKey.OP_READ);
                } else if (inbound.ended) {
                    if (inbound.error != null) {
                        throw new UncheckedIOException("read failed", inbound.error);
                    }
                    return Poll.ready(-1);
                } else if (reg.isArmedLocked(SelectionKey.OP_READ)) {
                    // the reactor reads as soon as bytes arrive: a read here would only find none
                    Waker w = Reactor.toWaitWith(cx.waker(), SelectionKey.OP_READ);
                    reactor.checkOpen();       // before the waker goes where nobody looks
                    n = 0;
                    change = reg.add(SelectionKey.OP_READ, w);
                } else {
                    try {
                        n = readSome(dst);
                    } catch (IOException e) {
                        throw new UncheckedIOException("read failed", e);
                    }
                    if (n < 0) {
                        inbound.ended = true;
                    }
                    if (n == 0) {
                        // about to wait: refuse it on a closed reactor before arming, or the
                        // armed interest made the next read wait for a selector long gone
                        Waker w = Reactor.toWaitWith(cx.waker(), SelectionKey.OP_READ);
                        reactor.checkOpen();
                        change = reg.add(SelectionKey.OP_READ, w);
                    } else {
                        change = Reactor.NO_CHANGE;
                    }
                }
                if (n > 0) {
                    moved = n;                 // should nobody receive the count: giveBackUnreceived
                    movedFrom = from;
                }
            }
            if (change == Reactor.CHANGED) {
                reactor.interestChanged(reg);
            } else if (change == Reactor.CANCELLED) {
                cx.waker().wake();             // closed meanwhile: the next poll reports it
            }
            if (n > 0) {
                Runnable seam = afterReadTransfer;
                if (seam != null) {
                    seam.run();
                }
            }
            return n != 0 ? Poll.ready(n) : Poll.pending();
        }

        /**
         * Nobody received {@code value}, the count the last poll returned: the bytes it stands
         * for go back to the stream, ahead of the rest, and {@code dst}'s position back to where
         * the read found it (see {@link #read}). Nothing if that poll moved no bytes, if they were
         * given back already, if {@code dst} was moved on since (not by this library: the task
         * owned it), or if the stream was closed meanwhile (no read takes bytes from it again).
         * An {@link OutOfMemoryError} from the copies leaves everything as it was.
         */
        @Override
        public void giveBackUnreceived(Object value) {
            synchronized (reg) {
                int n = moved;
                if (n <= 0 || !(value instanceof Integer count) || count != n
                        || dst.position() != movedFrom + n || !channel.isOpen()) {
                    return;
                }
                byte[] bytes = new byte[n];
                dst.get(movedFrom, bytes);
                inbound.giveBack(bytes);       // allocates too: only then is anything changed
                dst.position(movedFrom);
                moved = 0;                     // once
            }
        }
    }

    /**
     * A task that writes from {@code src}: ready with the number of bytes written (at least one,
     * perhaps fewer than remaining), or 0 at once if {@code src} is empty (on a stream closed
     * here it fails, as every write then does); pending while the
     * socket's send buffer is full.
     *
     * <p><b>A count nobody receives.</b> Bytes written cannot be taken back: if the write's task
     * is cancelled during the poll that wrote them (the runtime drops what that poll returns,
     * see {@link dev.spindle.async.JoinHandle#cancel}), or a combinator drops its count, the
     * bytes are sent all the same. {@code src}'s position has moved past exactly those bytes, so
     * it tells how many were written: a caller that goes on from {@code src}'s position after
     * such a cancel sends every byte once, and one that starts again from where it began sends
     * those bytes twice.
     *
     * @param src the bytes to write, from its position up to its limit; the task owns it until
     *     ready
     * @return a one-shot task ready with the byte count written
     * @throws NullPointerException if {@code src} is null
     */
    public AsyncTask<Integer> write(ByteBuffer src) {
        Objects.requireNonNull(src, "src");
        return cx -> {
            if (!src.hasRemaining()) {
                checkNotClosed("write");       // nothing to move, yet a closed stream says so
                return Poll.ready(0);
            }
            if (!cx.consumeBudget()) {
                // a null waker (a hand-written context) is refused as a wait refuses it
                Reactor.toWaitWith(cx.waker(), SelectionKey.OP_WRITE).wake();
                return Poll.pending();
            }
            int n;
            try {
                n = writeSome(src);
            } catch (IOException e) {
                throw new UncheckedIOException("write failed", e);
            }
            if (n != 0) {
                return Poll.ready(n);
            }
            reactor.await(reg, SelectionKey.OP_WRITE, cx.waker());
            return Poll.pending();
        };
    }

    /**
     * A task that writes everything remaining in {@code src}, waiting as often as needed. Each
     * write takes a unit of budget, so a long write still yields.
     * An empty {@code src} is ready at once, or fails on a stream closed here, as
     * {@link #write} does. A write-all cancelled part-way (while it waits, or during a poll that
     * wrote) has sent the bytes before {@code src}'s position and none after it, as
     * {@link #write} says.
     *
     * @param src the bytes to write, from its position up to its limit; the task owns it until
     *     ready
     * @return a one-shot task, ready ({@code null}) once {@code src} has no bytes remaining
     * @throws NullPointerException if {@code src} is null
     */
    public AsyncTask<Void> writeAll(ByteBuffer src) {
        Objects.requireNonNull(src, "src");
        return cx -> {
            if (!src.hasRemaining()) {
                checkNotClosed("write");       // nothing to move, yet a closed stream says so
            }
            while (src.hasRemaining()) {
                if (!cx.consumeBudget()) {
                    // a null waker (a hand-written context) is refused as a wait refuses it
                    Reactor.toWaitWith(cx.waker(), SelectionKey.OP_WRITE).wake();
                    return Poll.pending();
                }
                int n;
                try {
                    n = writeSome(src);
                } catch (IOException e) {
                    throw new UncheckedIOException("write failed", e);
                }
                if (n == 0) {
                    reactor.await(reg, SelectionKey.OP_WRITE, cx.waker());
                    return Poll.pending();
                }
            }
            return Poll.ready(null);
        };
    }

    /**
     * For a read or write with nothing to move: fails as every operation does on a stream closed
     * here. The shortcut for an empty buffer answered 0 (or success) without looking, so an empty
     * frame sent after {@link #close()} was reported written, where a {@code SocketChannel}
     * throws a {@link ClosedChannelException}. (After {@link #shutdownOutput()} alone an empty write still answers 0.)
     */
    private void checkNotClosed(String operation) {
        if (!channel.isOpen()) {
            throw new UncheckedIOException(operation + " failed", new ClosedChannelException());
        }
    }

    /** One {@code channel.read}, of at most {@link #MAX_HEAP_TRANSFER} bytes into a heap buffer. */
    private int readSome(ByteBuffer dst) throws IOException {
        if (dst.isDirect() || dst.remaining() <= MAX_HEAP_TRANSFER) {
            return channel.read(dst);
        }
        int n = channel.read(dst.slice(dst.position(), MAX_HEAP_TRANSFER));
        if (n > 0) {
            dst.position(dst.position() + n);
        }
        return n;
    }

    /** One {@code channel.write}, of at most {@link #MAX_HEAP_TRANSFER} bytes from a heap buffer. */
    private int writeSome(ByteBuffer src) throws IOException {
        if (src.isDirect() || src.remaining() <= MAX_HEAP_TRANSFER) {
            return channel.write(src);
        }
        int n = channel.write(src.slice(src.position(), MAX_HEAP_TRANSFER));
        src.position(src.position() + n);
        return n;
    }

    /**
     * Half-closes the connection: the peer reads end of stream; reading here goes on.
     *
     * @throws java.io.UncheckedIOException if the connection is closed or the half-close fails
     */
    public void shutdownOutput() {
        try {
            channel.shutdownOutput();
        } catch (IOException e) {
            throw new UncheckedIOException("shutdownOutput failed", e);
        }
    }

    /**
     * The peer's address, or null if not connected.
     *
     * @return the remote address, or {@code null} if the stream is not connected or is closed
     */
    public SocketAddress remoteAddress() {
        try {
            return channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    /** The reactor serving this connection. */
    Reactor reactor() {
        return reactor;
    }

    /**
     * Whether the connection is still open (not closed here).
     *
     * @return {@code true} until {@link #close()} closes the socket
     */
    public boolean isOpen() {
        return channel.isOpen();
    }

    /**
     * Closes the connection and wakes the tasks waiting on it; its read-ahead buffer goes back to
     * the reactor for the next stream. Idempotent. The socket is let go of at the reactor's next
     * select, or here on a {@linkplain ReactorGroup#openDriven driven} reactor that no runtime
     * drives (none built yet, or closed).
     */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        } finally {
            // after the channel's close: a read under this lock sees it closed, and touches no
            // buffer again
            synchronized (reg) {
                inbound.release();
            }
            reactor.deregister(reg);
        }
        reactor.releaseIfUndriven();           // a driven reactor nobody drives: see there
    }
}
