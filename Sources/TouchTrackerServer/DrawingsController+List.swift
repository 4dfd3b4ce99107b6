import Foundation
import Hummingbird
import TouchTrackerStore

/// The list of drawings, a page at a time (`DrawingListQuery`).
extension DrawingsController {
  /// One entry of the list.
  struct Entry: Encodable {
    var name: String
    var revision: Int
    var updatedAt: Date
    var lineCount: Int
    var circleCount: Int
  }

  /// `GET /api/drawings[?after=CURSOR][&limit=N][&search=TEXT]`: a page of
  /// the drawings, newest first, `limit` (1 to 1000, default 100) at most,
  /// those whose names hold `search` in any case; a JSON array of entries.
  /// When there are more, `Link: </api/drawings?after=CURSOR&...>;
  /// rel="next"` is the next page's address.
  @Sendable func list(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let query = try Self.listQuery(in: request)
    let page = try await store.list(query)
    let entries = page.drawings.map { summary in
      Entry(
        name: summary.name.rawValue,
        revision: summary.revision,
        updatedAt: summary.updatedAt,
        lineCount: summary.lineCount,
        circleCount: summary.circleCount
      )
    }
    var headers: HTTPFields = [:]
    if let next = page.next {
      var link = "/api/drawings?after=\(next)&limit=\(query.limit)"
      if !query.search.isEmpty {
        link += "&search=" + (query.search.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
      }
      headers[.link] = "<\(link)>; rel=\"next\""
    }
    return try JSONBody.response(entries, headers: headers, for: request)
  }

  /// The page `list` is asked for, from `after`, `limit` and `search`.
  static func listQuery(in request: Request) throws -> DrawingListQuery {
    let parameters = request.uri.queryParameters
    var query = DrawingListQuery()
    if let text = parameters.get("after") {
      guard let cursor = DrawingListCursor(text) else { throw APIError.invalidAfter(text) }
      query.after = cursor
    }
    if let text = parameters.get("limit") {
      guard let limit = DecimalDigits.value(text), (1...DrawingListQuery.maximumLimit).contains(limit)
      else { throw APIError.invalidLimit(text) }
      query.limit = limit
    }
    if let text = parameters.get("search") {
      guard text.utf8.count <= DrawingName.maximumLength else { throw APIError.invalidSearch(text) }
      query.search = text.lowercased()
    }
    return query
  }
}
