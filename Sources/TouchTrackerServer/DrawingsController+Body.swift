import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Request bodies, read within the server's `BodyBudget`.
extension DrawingsController {
  /// Runs `use` with the body, which is refused with 413 (`tooLarge`) past
  /// `limit`: at once if `Content-Length` says so, else as soon as that
  /// many bytes arrived. The body's bytes are counted in `budget` from
  /// before they are read until `use` returns: 503 with `Retry-After` if
  /// they do not fit beside the bodies in flight, 413 if they are more
  /// than the whole budget. With `Content-Length` the body is read into a
  /// buffer of that size and handed on without a copy; nothing here keeps
  /// it once `use` takes it (`BodyInHand`), so a document's bytes are freed
  /// once decoded, before the drawing is stored.
  func withBody<T>(
    of request: Request, upTo limit: Int = APIError.maximumBodySize, else tooLarge: APIError = .bodyTooLarge,
    _ use: (BodyInHand) async throws -> T
  ) async throws -> T {
    var reserved = 0
    defer { budget.release(reserved) }
    func reserve(_ bytes: Int) throws {
      guard bytes <= budget.limit - reserved else { throw APIError.overBodyBudget(budget.limit) }
      guard budget.reserve(bytes) else { throw APIError.bodyBudgetFull(budget.limit) }
      reserved += bytes
    }
    // A function of its own, so that its buffer is gone when it returns
    // (a debug build keeps a local until the end of its scope).
    func read() async throws -> Data {
      var buffer: ByteBuffer
      if let length = request.headers[.contentLength].flatMap(Int.init), length >= 0 {
        if length > limit { throw tooLarge }
        try reserve(length)
        buffer = ByteBufferAllocator().buffer(capacity: length)
        for try await var part in request.body { buffer.writeBuffer(&part) }
      } else {
        buffer = ByteBuffer()
        for try await var part in request.body {
          if buffer.readableBytes + part.readableBytes > limit { throw tooLarge }
          try reserve(part.readableBytes)
          buffer.writeBuffer(&part)
        }
      }
      return buffer.readData(length: buffer.readableBytes, byteTransferStrategy: .noCopy) ?? Data()
    }
    let body: BodyInHand
    do {
      body = BodyInHand(try await read())
    } catch let error as APIError {
      throw error
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw tooLarge
    } catch is HTTPParserError {
      // NIO found the framing broken (a chunk size that is not hex, say):
      // the client's fault, and the connection cannot be trusted further.
      throw APIError.malformedBody
    }
    return try await use(body)
  }
}

/// A request body that its user takes out: `withBody` then holds no
/// reference to its bytes, which are freed as soon as the user is done
/// with them (a 200 MB document's, once it is decoded into lines).
final class BodyInHand: Sendable {
  private let data: NIOLockedValueBox<Data?>

  init(_ data: Data) {
    self.data = NIOLockedValueBox(data)
  }

  /// The body; empty if it was taken before.
  func take() -> Data {
    data.withLockedValue { data in
      let taken = data ?? Data()
      data = nil
      return taken
    }
  }
}
