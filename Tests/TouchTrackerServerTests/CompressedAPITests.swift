import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// A drawing, its changes and the list go gzipped to a client that accepts
/// gzip once they are large enough to gain from it, as they are otherwise,
/// and say that they vary by `Accept-Encoding`.
@Suite struct CompressedAPITests {
  static let browser: HTTPFields = [.acceptEncoding: "gzip, deflate, br, zstd"]

  @Test func aLargeDrawingGoesGzippedWithItsRevisionAndReadsBackExactly() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/big", method: .put, body: documentText(lines: 200).buffer)
      let plain = try await client.execute(uri: "/api/drawings/big", method: .get)
      #expect(plain.headers[.contentEncoding] == nil)
      #expect(plain.headers[.vary] == "Accept-Encoding")
      try await client.execute(uri: "/api/drawings/big", method: .get, headers: Self.browser) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentEncoding] == "gzip")
        #expect(response.headers[.vary] == "Accept-Encoding")
        #expect(response.headers[.eTag] == #""1""#)
        #expect(response.headers[.contentType] == "application/json; charset=utf-8")
        let body = Data(buffer: response.body)
        #expect(body.count < plain.body.readableBytes / 2)
        #expect(CompressedWebAssetsTests.gunzip(body) == Data(buffer: plain.body))
        #expect(String(decoding: Data(buffer: plain.body), as: UTF8.self) == storedDocumentText(lines: 200))
      }
      // HEAD says what GET would send: the gzipped length.
      let gzipped = try await client.execute(uri: "/api/drawings/big", method: .get, headers: Self.browser)
      try await client.execute(uri: "/api/drawings/big", method: .head, headers: Self.browser) { response in
        #expect(response.headers[.contentEncoding] == "gzip")
        #expect(response.headers[.contentLength] == String(gzipped.body.readableBytes))
      }
    }
  }

  @Test func aClientThatRefusesGzipGetsItPlain() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/big", method: .put, body: documentText(lines: 200).buffer)
      for refusal in ["identity", "gzip;q=0", "br", ""] {
        try await client.execute(uri: "/api/drawings/big", method: .get, headers: [.acceptEncoding: refusal]) {
          #expect($0.headers[.contentEncoding] == nil, "Accept-Encoding: \(refusal)")
          #expect($0.text == storedDocumentText(lines: 200))
        }
      }
    }
  }

  @Test func aSmallDrawingGoesPlainEvenToABrowser() async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: "/api/drawings/small", method: .put, body: documentText(lines: 1).buffer)
      try await client.execute(uri: "/api/drawings/small", method: .get, headers: Self.browser) {
        #expect($0.headers[.contentEncoding] == nil)
        #expect($0.text == storedDocumentText(lines: 1))
      }
    }
  }

  @Test func manyChangesAndALongListGoGzipped() async throws {
    try await TestServer.run { _, client in
      let adds = (1...50).map { ChangesAPITests.addJSON($0) }
      let changes = #"{"changes":["# + adds.joined(separator: ",") + "]}"
      try await client.execute(uri: "/api/drawings/log/changes", method: .post, body: ByteBuffer(string: changes)) {
        #expect($0.status == .ok)
      }
      let plainChanges = try await client.execute(uri: "/api/drawings/log/changes?since=0", method: .get)
      try await client.execute(uri: "/api/drawings/log/changes?since=0", method: .get, headers: Self.browser) {
        #expect($0.status == .ok)
        #expect($0.headers[.contentEncoding] == "gzip")
        #expect(CompressedWebAssetsTests.gunzip(Data(buffer: $0.body)) == Data(buffer: plainChanges.body))
      }
      for index in 0..<30 {
        try await client.execute(
          uri: "/api/drawings/drawing-with-a-long-name-\(index)", method: .put, body: documentText(lines: 1).buffer)
      }
      let plainList = try await client.execute(uri: "/api/drawings", method: .get)
      #expect(plainList.body.readableBytes >= JSONBody.compressedFrom)
      try await client.execute(uri: "/api/drawings", method: .get, headers: Self.browser) {
        #expect($0.headers[.contentEncoding] == "gzip")
        #expect(CompressedWebAssetsTests.gunzip(Data(buffer: $0.body)) == Data(buffer: plainList.body))
      }
    }
  }
}
