import Foundation
import Hummingbird
import NIOHTTP1
import TouchTrackerStore

/// Makes every failure under `/api/` a JSON error: handlers throw `APIError`s
/// already; this turns the rest (an unknown route, a database failure) into
/// one, and logs the unexpected ones, whose details stay on the server.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard request.uri.path.hasPrefix("/api/") else { return try await next(request, context) }
    do {
      return try await next(request, context)
    } catch let error as APIError {
      throw error
    } catch let error as DrawingStoreError {
      throw APIError(error)  // 503 for a database down or not answering, whichever handler met it
    } catch let error as any HTTPResponseError {
      if error.status == .notFound {
        throw APIError(.notFound, "No such endpoint: \(request.method) \(request.uri.path)")
      }
      throw APIError(error.status, error.status.reasonPhrase)
    } catch is HTTPParserError {
      throw APIError.malformedBody  // The client's framing, not our failure.
    } catch {
      context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
      // Named: which drawing, reading or writing, and what SQLite said went
      // wrong (the disk full, a damaged page), never the SQL.
      let reading = request.method == .get || request.method == .head
      let what = Self.drawingName(inPath: request.uri.path).map { "drawing '\($0)'" } ?? "the drawings"
      guard let problem = DatabaseProblem.sentence(for: error) else {
        throw APIError(.internalServerError, "Internal server error while \(reading ? "reading" : "writing") \(what)")
      }
      throw APIError(
        .internalServerError,
        reading
          ? "Could not read \(what): \(problem)"
          : "Could not store \(what): \(problem); nothing of this request was stored")
    }
  }

  /// NAME of `/api/drawings/NAME[/...]`, if the path names a drawing.
  static func drawingName(inPath path: String) -> String? {
    let parts = path.split(separator: "/")
    guard parts.count >= 3, parts[0] == "api", parts[1] == "drawings" else { return nil }
    let raw = String(parts[2])
    return (try? DrawingName(raw.removingPercentEncoding ?? raw))?.rawValue
  }
}
