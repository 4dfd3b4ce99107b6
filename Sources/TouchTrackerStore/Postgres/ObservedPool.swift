import PostgresNIO

/// The store's way into `PostgresClient`'s pool: every connection a call
/// of the store takes goes through `withConnection`, which tells the
/// observer of the wait for it and of its return, so `/metrics` shows how
/// many calls hold a connection and how many wait for one.
struct ObservedPool: Sendable {
  let client: PostgresClient
  let observer: any StoreObserver

  func withConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
    observer.poolWaitBegan()
    let asked = ContinuousClock.now
    var got = false
    do {
      return try await client.withConnection { connection in
        got = true
        observer.poolWaitEnded(waited: ContinuousClock.now - asked, gotConnection: true)
        defer { observer.poolConnectionReturned() }
        return try await body(connection)
      }
    } catch {
      if !got { observer.poolWaitEnded(waited: ContinuousClock.now - asked, gotConnection: false) }
      throw error
    }
  }
}
