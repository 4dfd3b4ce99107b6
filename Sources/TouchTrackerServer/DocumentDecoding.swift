import Foundation
import NIOPosix
import TouchTrackerCore
import TouchTrackerStore

/// Decodes request bodies on NIO's blocking-work thread pool, never on an
/// event loop or Swift's cooperative pool.
///
/// Why: decoding the largest body (32 MiB) takes a core for up to a second
/// or so with the linear parser. Run in a handler, a few such requests would
/// occupy every thread of the cooperative pool (one per core) and stall all
/// other requests, `GET`s of small files included. On the pool they queue
/// behind each other (as many at once as the machine has cores) while
/// everything else is answered. The bound per request is its size (32 MiB)
/// times the parser's linear cost; there is no budget in time beyond that.
enum DocumentDecoding {
  static func decode(_ data: Data) async throws -> Drawing {
    try await NIOThreadPool.singleton.runIfActive {
      try DocumentCodec.decode(data)
    }
  }
}

/// `DocumentDecoding` for a list of changes: an undo of "clear" re-adds
/// every line, so a list can be as large as a document. A small list (one
/// finished line is ~150 bytes) is decoded where it is, in microseconds:
/// the hop to the pool and back would cost more than decoding it.
enum ChangeDecoding {
  static let inlineLimit = 64 * 1024

  static func decode(_ data: Data) async throws -> [Change] {
    if data.count <= inlineLimit { return try ChangeCodec.decodeList(data) }
    return try await NIOThreadPool.singleton.runIfActive {
      try ChangeCodec.decodeList(data)
    }
  }
}
