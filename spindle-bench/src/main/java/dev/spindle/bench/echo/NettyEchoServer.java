/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The echo server on Netty 4.2's NIO transport, the way Netty 4.2 sets one up: a
 * {@link MultiThreadIoEventLoopGroup} with the {@link NioIoHandler} factory, one thread that
 * accepts and N event-loop threads that serve the connections (each connection stays on one
 * loop). The handler writes back each buffer it reads, passing it on without a copy, and flushes
 * once per batch of reads.
 *
 * <p>Closing closes every open connection itself, through a {@link ChannelGroup}, before it shuts
 * the loops down: a loop's shutdown closes the channels registered on it as well, but the tests
 * saw a connection on the epoll transport stay open after both groups had terminated (a client's
 * read waited 10 s for the end of the stream, once in several runs), so the server does not leave
 * that to the transport.
 */
final class NettyEchoServer extends ListeningServer {

    private final EventLoopGroup acceptor;
    private final EventLoopGroup loops;
    private final Channel channel;
    /** Every accepted connection still open; a channel leaves the group when it closes. */
    private final ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);

    /**
     * @param epoll Netty's native epoll transport instead of NIO (the caller checks
     *     {@code Epoll.isAvailable()} first)
     */
    NettyEchoServer(int workers, boolean epoll) {
        super(epoll ? EchoServers.NETTY_EPOLL : EchoServers.NETTY);
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> serverChannel = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        acceptor = new MultiThreadIoEventLoopGroup(1, io);
        loops = new MultiThreadIoEventLoopGroup(workers, io);
        try {
            channel = new ServerBootstrap()
                    .group(acceptor, loops)
                    .channel(serverChannel)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new Echo(connections))
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
                    .syncUninterruptibly()
                    .channel();
        } catch (RuntimeException e) {
            stopLoops();
            throw e;
        }
        listening((InetSocketAddress) channel.localAddress());
    }

    /** Writes back what it reads; it keeps no state per connection, so one instance serves them all. */
    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        private final ChannelGroup connections;

        Echo(ChannelGroup connections) {
            this.connections = connections;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            connections.add(ctx.channel());     // a channel closed meanwhile is not added
            ctx.fireChannelActive();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);                     // the write releases the buffer
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();                        // a reset peer: drop the connection, keep serving
        }
    }

    @Override
    void shutdown() {
        channel.close().syncUninterruptibly();    // no new connections from here on
        connections.close().awaitUninterruptibly();
        stopLoops();
    }

    /** Shutting a group down closes the connections on its loops. */
    private void stopLoops() {
        acceptor.shutdownGracefully(0, 5, TimeUnit.SECONDS);
        loops.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        acceptor.terminationFuture().syncUninterruptibly();
    }
}
