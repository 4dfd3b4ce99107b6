import NIOCore
import NIOPosix

/// A TCP relay on loopback in front of a PostgreSQL server that can be
/// frozen: while frozen it accepts connections and takes bytes but
/// forwards none, so the server looks as one stopped with SIGSTOP does
/// (its connections hang, nothing is refused). Thawed, it forwards what it
/// held, in order. Its own event loop, one thread: no locks.
final class FreezingProxy: Sendable {
  let port: Int
  private let group: MultiThreadedEventLoopGroup
  private let listener: any Channel
  private let state: NIOLoopBound<State>

  private final class State {
    var frozen = false
    var held: [(to: any Channel, bytes: ByteBuffer)] = []
  }

  init(toHost host: String, port upstreamPort: Int) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let loop = group.next()
    let state = try await loop.submit { NIOLoopBound(State(), eventLoop: loop) }.get()
    listener = try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { inbound in
        ClientBootstrap(group: loop).connect(host: host, port: upstreamPort).flatMap { outbound in
          outbound.pipeline.addHandler(Relay(partner: inbound, state: state)).flatMap {
            inbound.pipeline.addHandler(Relay(partner: outbound, state: state))
          }
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    port = listener.localAddress?.port ?? 0
    self.group = group
    self.state = state
  }

  /// Stops forwarding: every byte from now on is held.
  func freeze() async throws {
    try await state.eventLoop.submit { self.state.value.frozen = true }.get()
  }

  /// Forwards what was held, then everything again.
  func thaw() async throws {
    try await state.eventLoop.submit {
      let state = self.state.value
      state.frozen = false
      for (channel, bytes) in state.held { channel.writeAndFlush(bytes, promise: nil) }
      state.held = []
    }.get()
  }

  func close() async throws {
    try? await listener.close()
    try await group.shutdownGracefully()
  }

  private final class Relay: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer
    let partner: any Channel
    let state: NIOLoopBound<State>

    init(partner: any Channel, state: NIOLoopBound<State>) {
      self.partner = partner
      self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      let bytes = unwrapInboundIn(data)
      if state.value.frozen {
        state.value.held.append((partner, bytes))
      } else {
        partner.writeAndFlush(bytes, promise: nil)
      }
    }

    func channelInactive(context: ChannelHandlerContext) {
      partner.close(promise: nil)
    }
  }
}
