import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// `GET /api/drawings` a page at a time: `?after=&limit=&search=`, newest
/// first, the next page's address in `Link`, search done by the server.
@Suite struct DrawingsListPagingTests {
  static let link = HTTPFields.Element.Name("Link")!

  struct Entry: Decodable, Equatable {
    var name: String
    var updatedAt: String
  }

  static func put(_ names: [String], _ client: any TestClientProtocol) async throws {
    for name in names {
      try await client.execute(uri: "/api/drawings/\(name)", method: .put, body: documentText(lines: 1).buffer) {
        #expect($0.status == .ok)
      }
    }
  }

  /// Every page from `uri` on, by the `Link`s; at most 50 pages.
  static func pages(_ uri: String, _ client: any TestClientProtocol) async throws -> [[Entry]] {
    var pages: [[Entry]] = []
    var next: String? = uri
    while let uri = next, pages.count < 50 {
      next = try await client.execute(uri: uri, method: .get) { response in
        #expect(response.status == .ok, "\(uri): \(response.text)")
        pages.append(try JSONDecoder().decode([Entry].self, from: Data(response.text.utf8)))
        return try Self.nextLink(response.headers[Self.link])
      }
    }
    return pages
  }

  /// The address of `Link: <ADDRESS>; rel="next"`, or nil without one.
  static func nextLink(_ header: String?) throws -> String? {
    guard let header else { return nil }
    let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
    try #require(parts.count == 2 && parts[1] == #"rel="next""# && parts[0].hasPrefix("<") && parts[0].hasSuffix(">"))
    return String(parts[0].dropFirst().dropLast())
  }

  @Test func theListComesAPageAtATimeNewestFirstWithALinkToTheNext() async throws {
    try await TestServer.run { _, client in
      let names = (1...7).map { "d\($0)" }
      try await Self.put(names, client)
      try await client.execute(uri: "/api/drawings?limit=3", method: .get) { response in
        let link = try #require(response.headers[Self.link])
        #expect(link.hasPrefix("</api/drawings?after="))
        #expect(link.hasSuffix(#"&limit=3>; rel="next""#))
      }
      let pages = try await Self.pages("/api/drawings?limit=3", client)
      #expect(pages.map(\.count) == [3, 3, 1])
      let entries = pages.flatMap { $0 }
      #expect(Set(entries.map(\.name)) == Set(names))
      #expect(entries.count == names.count)
      // Newest first (the times are in seconds here; the store's tests
      // pin the order within a second).
      #expect(entries.map(\.updatedAt) == entries.map(\.updatedAt).sorted(by: >))
    }
  }

  @Test func withoutALimitAPageHoldsAHundred() async throws {
    try await TestServer.run { _, client in
      try await Self.put((1...101).map { "d\($0)" }, client)
      #expect(try await Self.pages("/api/drawings", client).map(\.count) == [100, 1])
    }
  }

  @Test func theServerSearchesNamesInAnyCaseAndTheLinkKeepsTheSearch() async throws {
    try await TestServer.run { _, client in
      try await Self.put(["cat-1", "dog", "Bobcat", "CATALOG", "x_y"], client)
      let pages = try await Self.pages("/api/drawings?limit=2&search=CaT", client)
      #expect(pages.map(\.count) == [2, 1])
      #expect(Set(pages.flatMap { $0 }.map(\.name)) == ["cat-1", "Bobcat", "CATALOG"])
      try await client.execute(uri: "/api/drawings?limit=2&search=CaT", method: .get) { response in
        #expect(response.headers[Self.link]?.contains("&search=cat>") == true, "\(response.headers)")
      }
      #expect(try await Self.pages("/api/drawings?search=_", client).map { $0.map(\.name) } == [["x_y"]])
      #expect(try await Self.pages("/api/drawings?search=no%20such", client).map(\.count) == [0])
    }
  }

  @Test(arguments: [
    ("limit=0", "Invalid query parameter limit='0': expected a number from 1 to 1000"),
    ("limit=1001", "Invalid query parameter limit='1001': expected a number from 1 to 1000"),
    ("limit=-1", "Invalid query parameter limit='-1': expected a number from 1 to 1000"),
    ("limit=ten", "Invalid query parameter limit='ten': expected a number from 1 to 1000"),
    (
      "after=sketch",
      #"Invalid query parameter after='sketch': expected the cursor of the previous page's Link rel="next" (like 1764340000123000.sketch)"#
    ),
    (
      "after=%2B3.sketch",
      #"Invalid query parameter after='+3.sketch': expected the cursor of the previous page's Link rel="next" (like 1764340000123000.sketch)"#
    ),
    (
      "after=-0.sketch",
      #"Invalid query parameter after='-0.sketch': expected the cursor of the previous page's Link rel="next" (like 1764340000123000.sketch)"#
    ),
    (
      "after=1234567890123456789.sketch",
      #"Invalid query parameter after='1234567890123456789.sketch': expected the cursor of the previous page's Link rel="next" (like 1764340000123000.sketch)"#
    ),
    ("limit=%2B3", "Invalid query parameter limit='+3': expected a number from 1 to 1000"),
    (
      "search=" + String(repeating: "a", count: 65),
      "Invalid query parameter search='\(String(repeating: "a", count: 65))...': at most 64 characters, the longest a drawing name is"
    ),
  ])
  func badPagingParametersAre400NamingThem(query: String, error: String) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings?\(query)", method: .get) { response in
        #expect(response.status == .badRequest)
        let body = try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any]
        #expect(body?["error"] as? String == error)
      }
    }
  }
}
