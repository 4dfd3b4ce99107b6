import Hummingbird
import NIOHTTP1

/// Adds `SecurityHeaders` to every response, errors included; outside
/// every middleware that answers (only `ServerTimingMiddleware`, which
/// passes responses on, is outside it), so nothing answers without them.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
  private static var fields: HTTPFields {
    var fields = HTTPFields()
    for (name, value) in SecurityHeaders.all { fields[HTTPFields.Element.Name(name)!] = value }
    return fields
  }

  private let fields = Self.fields

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    var response: Response
    do {
      response = try await next(request, context)
    } catch let error as any HTTPResponseError {
      response = try error.response(from: request, context: context)
    } catch let error where !(error is HTTPParserError) && !(error is CancellationError) {
      // Anything else would reach Hummingbird as a bare 500 without these
      // headers; `APIErrorMiddleware` does the same for `/api/`. A parser
      // error (a malformed body, read by the handler) goes on:
      // `ConnectionGuardHandler` answers it with 400 and closes.
      context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
      response = try APIError(.internalServerError, "Internal server error").response(from: request, context: context)
    }
    for field in fields { response.headers[field.name] = field.value }
    return response
  }
}
