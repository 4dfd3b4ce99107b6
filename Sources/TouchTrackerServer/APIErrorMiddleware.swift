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
      throw APIError(.internalServerError, "Internal server error")
    }
  }
}
