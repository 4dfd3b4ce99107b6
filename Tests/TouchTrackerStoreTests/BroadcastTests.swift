import Foundation
import Testing

@testable import TouchTrackerStore

/// What servers on one database tell each other and never store
/// (`broadcast`, `broadcasts`: lines in progress): every process on the
/// database hears it; a backend whose writers are all in this process has
/// no such channel.
@Suite struct BroadcastTests {
  @Test(arguments: StoreBackend.available)
  func aBroadcastReachesEveryProcessOnTheDatabaseAndEndsWithTheStore(_ backend: StoreBackend) async throws {
    try await backend.withDatabase { open in
      let a = try await open()
      let b = try await open()
      guard backend == .postgres else {
        #expect(a.broadcasts() == nil, "one process: nothing to tell another")
        try await a.broadcast("nobody hears this")
        return
      }
      var heardByA = try #require(a.broadcasts()).makeAsyncIterator()
      var heardByB = try #require(b.broadcasts()).makeAsyncIterator()
      // Each listens on a connection of its own, made in the background, and
      // what is broadcast before it listens is not heard: sent until heard.
      let sending = Task {
        for _ in 0..<400 where !Task.isCancelled {
          try? await a.broadcast(#"{"o":"a"}"#)
          try? await Task.sleep(for: .milliseconds(25))
        }
      }
      #expect(await heardByB.next() == #"{"o":"a"}"#)
      #expect(await heardByA.next() == #"{"o":"a"}"#, "its own too")
      sending.cancel()
      await sending.value
      // Too long for NOTIFY: not sent, not an error.
      try await a.broadcast(String(repeating: "x", count: maximumBroadcastLength + 1))

      await a.close()
      try await a.broadcast("after close: sends nothing, waits for nothing")
      while await heardByA.next() != nil {}  // the stream ends with the store
    }
  }
}
