import Foundation
import Hummingbird
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
  /// buffer of that size and handed on without a copy.
  func withBody<T>(
    of request: Request, upTo limit: Int = APIError.maximumBodySize, else tooLarge: APIError = .bodyTooLarge,
    _ use: (Data) async throws -> T
  ) async throws -> T {
    var reserved = 0
    defer { budget.release(reserved) }
    func reserve(_ bytes: Int) throws {
      guard bytes <= budget.limit - reserved else { throw APIError.overBodyBudget(budget.limit) }
      guard budget.reserve(bytes) else { throw APIError.bodyBudgetFull(budget.limit) }
      reserved += bytes
    }
    var buffer: ByteBuffer
    do {
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
    } catch let error as APIError {
      throw error
    } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
      throw tooLarge
    } catch is HTTPParserError {
      // NIO found the framing broken (a chunk size that is not hex, say):
      // the client's fault, and the connection cannot be trusted further.
      throw APIError.malformedBody
    }
    let data = buffer.readData(length: buffer.readableBytes, byteTransferStrategy: .noCopy) ?? Data()
    return try await use(data)
  }
}
