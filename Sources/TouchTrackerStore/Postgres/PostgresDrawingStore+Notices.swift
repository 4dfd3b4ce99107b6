import Foundation
import Logging
import NIOPosix
import PostgresNIO

extension PostgresDrawingStore {
  /// The notices of every write to this database, from this server and
  /// every other, in commit order (`changeChannel`), and the other
  /// servers' `broadcast` messages (`peerChannel`), over one connection of
  /// their own that runs `LISTEN` on both. `mayHaveMissed` comes once
  /// listening starts, and again after the connection was lost and made
  /// again, so that a listener looks at every drawing it follows (peer
  /// messages sent meanwhile are lost: they were ephemeral).
  ///
  /// The stream ends when `close` is called or the listener stops iterating.
  public func notices() -> AsyncStream<StoreNotice>? {
    let (stream, continuation) = AsyncStream<StoreNotice>.makeStream(bufferingPolicy: .unbounded)
    let (url, logger, origin) = (url, logger, origin)
    let task = Task {
      while !Task.isCancelled {
        if let connection = try? await PostgresConnection.connect(
          on: MultiThreadedEventLoopGroup.singleton.next(), configuration: url.connectionConfiguration(), id: 2,
          logger: logger
        ).get() {
          do {
            let changes = try await connection.listen(Self.changeChannel)
            let peers = try await connection.listen(Self.peerChannel)
            continuation.yield(.mayHaveMissed)
            try await withThrowingTaskGroup(of: Void.self) { group in
              group.addTask {
                for try await notification in changes {
                  if let notice = DrawingNotice(payload: notification.payload) { continuation.yield(.drawing(notice)) }
                }
              }
              group.addTask {
                for try await notification in peers {
                  if let message = PeerMessage(payload: notification.payload), message.origin != origin {
                    continuation.yield(.peer(message))
                  }
                }
              }
              // Either ends only with the connection: then make it again.
              try await group.next()
              group.cancelAll()
            }
          } catch {
            // The connection was lost: make it again, then say some may be missed.
          }
          try? await connection.close()
        }
        try? await Task.sleep(for: .milliseconds(250))
      }
      continuation.finish()
    }
    continuation.onTermination = { _ in task.cancel() }
    listeners.add(task)
    return stream
  }

  /// Sends `message` to the other servers (`NOTIFY` on `peerChannel`), in
  /// the order of the calls: one task sends them one after another. A
  /// message past NOTIFY's 8,000-byte payload, or one that finds 1,000
  /// waiting, is dropped.
  public func broadcast(_ message: PeerMessage) {
    let payload = message.payload(origin: origin)
    guard payload.utf8.count < 8000 else { return }
    peers.send(payload)
  }

  /// The task that sends `peers`' payloads, one after another, until `close`.
  static func sendingToPeers(_ peers: PeerQueue, client: PostgresClient, logger: Logger) -> Task<Void, Never> {
    Task {
      for await payload in peers.stream {
        _ = try? await client.query("SELECT pg_notify(\(Self.peerChannel), \(payload))", logger: logger)
      }
    }
  }
}

/// The payloads `broadcast` queued, in order, for the one task that sends them.
final class PeerQueue: Sendable {
  let stream: AsyncStream<String>
  private let continuation: AsyncStream<String>.Continuation

  init() {
    (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(1000))
  }

  func send(_ payload: String) { continuation.yield(payload) }

  func finish() { continuation.finish() }
}

/// The listening tasks of a store, cancelled by `close`.
final class ListenerTasks: @unchecked Sendable {
  private let lock = NSLock()
  private var tasks: [Task<Void, Never>] = []

  func add(_ task: Task<Void, Never>) { lock.withLock { tasks.append(task) } }

  func cancelAll() async {
    let tasks = lock.withLock { self.tasks }
    for task in tasks {
      task.cancel()
      await task.value
    }
  }
}
