import Foundation
import Logging
import NIOPosix
import PostgresNIO

extension PostgresDrawingStore {
  /// The notices of every write to this database, from this server and
  /// every other, in commit order, over a connection of their own that
  /// runs `LISTEN`. A nil means "some may have been missed": sent once
  /// listening starts, and again after the connection was lost and made
  /// again, so that a listener looks at every drawing it follows.
  ///
  /// The stream ends when `close` is called or the listener stops iterating.
  public func notices() -> AsyncStream<DrawingNotice?>? {
    // Element is `DrawingNotice?`: a payload that is no notice is skipped (the outer nil), and
    // each start of listening yields a nil notice.
    listening(
      to: Self.changeChannel, connectionID: 2, heard: { DrawingNotice(payload: $0).map { .some($0) } },
      listening: .some(nil))
  }

  /// Other servers' (and this one's) `broadcast`s, over a connection of
  /// their own that runs `LISTEN`. One lost is not said: what is broadcast
  /// is sent again soon after (lines in progress).
  public func broadcasts() -> AsyncStream<String>? {
    listening(to: Self.broadcastChannel, connectionID: 3, heard: { $0 }, listening: nil)
  }

  public func broadcast(_ payload: String) async throws {
    guard !listeners.isClosing, payload.utf8.count <= maximumBroadcastLength else { return }
    try await withDatabase { [client, logger] in
      _ = try await client.query("SELECT pg_notify(\(Self.broadcastChannel), \(payload))", logger: logger)
    }
  }

  /// What `LISTEN channel` hears, each payload as `heard` makes it (nil:
  /// skipped), over a connection of its own made again when it is lost;
  /// `listening` (if any) is yielded each time listening starts. The stream
  /// ends when `close` is called or the listener stops iterating.
  private func listening<Element: Sendable>(
    to channel: String, connectionID: Int, heard: @escaping @Sendable (String) -> Element?,
    listening: Element?
  ) -> AsyncStream<Element> {
    let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
    let url = url
    let logger = logger
    let task = Task {
      while !Task.isCancelled {
        if let connection = try? await PostgresConnection.connect(
          on: MultiThreadedEventLoopGroup.singleton.next(), configuration: url.connectionConfiguration(),
          id: connectionID, logger: logger
        ).get() {
          do {
            try await connection.listen(on: channel) { notifications in
              if let listening { continuation.yield(listening) }
              for try await notification in notifications {
                if let element = heard(notification.payload) { continuation.yield(element) }
              }
            }
          } catch {
            // The connection was lost: make it again.
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
}

/// The listening tasks of a store, cancelled by `close`.
final class ListenerTasks: @unchecked Sendable {
  private let lock = NSLock()
  private var tasks: [Task<Void, Never>] = []
  private var closing = false

  func add(_ task: Task<Void, Never>) { lock.withLock { tasks.append(task) } }

  /// Whether `cancelAll` was called: the store is closing.
  var isClosing: Bool { lock.withLock { closing } }

  func cancelAll() async {
    let tasks = lock.withLock {
      closing = true
      return self.tasks
    }
    for task in tasks {
      task.cancel()
      await task.value
    }
  }
}
