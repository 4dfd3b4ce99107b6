import NIOCore
import NIOEmbedded
import Testing

@testable import TouchTrackerServer

/// Past its capacity, the registry of connections waiting for a request
/// head closes the one that has waited longest, and only that one.
@Suite struct WaitingConnectionsTests {
  @Test func pastTheCapacityTheLongestWaitingConnectionIsClosed() async throws {
    let waiting = WaitingConnections(capacity: 2)
    let channels = (0..<4).map { _ in EmbeddedChannel() }
    for channel in channels { try await channel.connect(to: .init(ipAddress: "127.0.0.1", port: 1)).get() }
    waiting.add(channels[0])
    waiting.add(channels[1])
    #expect(channels.allSatisfy { $0.isActive })
    waiting.add(channels[2])
    #expect(!channels[0].isActive)
    #expect(channels[1].isActive && channels[2].isActive)
    // A connection that sent its head no longer counts.
    waiting.remove(channels[1])
    waiting.add(channels[3])
    #expect(channels[1].isActive && channels[2].isActive && channels[3].isActive)
    #expect(waiting.count == 2)
  }
}
