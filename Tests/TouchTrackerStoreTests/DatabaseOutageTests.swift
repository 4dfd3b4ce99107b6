import Foundation
import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

@testable import TouchTrackerStore

/// A PostgreSQL server that stops answering (`FreezingProxy`: as SIGSTOP
/// leaves it, connections open and silent): every call is answered
/// `unavailable` by its deadline instead of hanging, and when the server is
/// back the store works again by itself, a timed-out keyed append landing
/// once. The bound asserted (10 s) is five times the deadline (2 s) and
/// says "not hung", not how fast this machine is.
@Suite struct DatabaseOutageTests: ChangeLogTesting {
  static let hung = Duration.seconds(10)

  @Test(.enabled(if: ProcessInfo.processInfo.environment[StoreBackend.postgresVariable] != nil))
  func aServerThatStopsAnsweringIsUnavailableNotAHangAndAKeyedRetryLandsOnce() async throws {
    try await withPostgresDatabase { url in
      let proxy = try await FreezingProxy(toHost: url.host, port: url.port)
      var proxied = url
      proxied.host = "127.0.0.1"
      proxied.port = proxy.port
      let store = try await PostgresDrawingStore(url: proxied, compaction: .manual, maximumConnections: 4)
      // Before the outage: on a loaded machine the first connection (a
      // backend started through the proxy) can take longer than the 2 s
      // deadline, so the keyed append is sent again, as a client would.
      let setup = ContinuousClock.now + .seconds(60)
      while true {
        do {
          try await store.append([Self.add(1)], to: Self.name, key: "before")
          break
        } catch DrawingStoreError.unavailable where ContinuousClock.now < setup {
          try await Task.sleep(for: .milliseconds(100))
        }
      }
      try await proxy.freeze()

      let append = await answer(within: Self.hung) {
        try await store.append([Self.add(2)], to: Self.name, key: "during")
      }
      let list = await answer(within: Self.hung) { try await store.list() }
      let load = await answer(within: Self.hung) { try await store.loadDocument(Self.name)?.revision }
      try await proxy.thaw()

      for answer in [append?.map { _ in () }, list?.map { _ in () }, load?.map { _ in () }] {
        let answer = try #require(answer, "hung past \(Self.hung)")
        guard case .failure(DrawingStoreError.unavailable(let location, let reason)) = answer else {
          Issue.record("expected unavailable, got \(answer)")
          continue
        }
        #expect(location == proxied.description)
        #expect(reason.hasPrefix("no answer"))  // "within 2 s", or "for 2.1 s" once known
      }
      let recovered = await answer(within: Self.hung) {
        while store.stall != nil { try await Task.sleep(for: .milliseconds(10)) }
      }
      try #require(recovered != nil, "still not answering \(Self.hung) after the server is back")
      // Back: the append that timed out may have committed meanwhile; sent
      // again with its key it lands once, whichever order they run in.
      #expect(try await store.append([Self.add(2)], to: Self.name, key: "during") == 2)
      #expect(try await store.changes(of: Self.name, since: 0)?.changes.count == 2)
      #expect(try await store.list().map(\.revision) == [2])
      await store.close()
      try await proxy.close()
    }
  }
}
