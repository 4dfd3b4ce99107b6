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
    let (stream, continuation) = AsyncStream<DrawingNotice?>.makeStream(bufferingPolicy: .unbounded)
    let url = url
    let logger = logger
    let task = Task {
      while !Task.isCancelled {
        if let connection = try? await PostgresConnection.connect(
          on: MultiThreadedEventLoopGroup.singleton.next(), configuration: url.connectionConfiguration(), id: 2,
          logger: logger
        ).get() {
          do {
            try await connection.listen(on: Self.changeChannel) { notifications in
              continuation.yield(nil)
              for try await notification in notifications {
                if let notice = DrawingNotice(payload: notification.payload) { continuation.yield(notice) }
              }
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
