import CZlib
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// The page's files go gzipped to a browser that accepts it, with their own
/// ETag, and as they are to one that does not.
@Suite struct CompressedWebAssetsTests {
  static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Web").standardizedFileURL

  /// The original of a gzip member (zlib's inflate, as a browser does).
  static func gunzip(_ data: Data) -> Data? {
    var stream = z_stream()
    guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    defer { inflateEnd(&stream) }
    var output = Data()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    var input = [UInt8](data)
    var status: Int32 = Z_OK
    input.withUnsafeMutableBufferPointer { inputBuffer in
      stream.next_in = inputBuffer.baseAddress
      stream.avail_in = uInt(inputBuffer.count)
      while status == Z_OK {
        chunk.withUnsafeMutableBufferPointer { out in
          stream.next_out = out.baseAddress
          stream.avail_out = uInt(out.count)
          status = inflate(&stream, Z_NO_FLUSH)
          output.append(out.baseAddress!, count: out.count - Int(stream.avail_out))
        }
      }
    }
    return status == Z_STREAM_END ? output : nil
  }

  @Test(arguments: ["app.js", "style.css", "index.html"])
  func aBrowserThatAcceptsGzipGetsTheFileGzipped(file: String) async throws {
    let original = try HashedWebAssetsTests.bundled(Data(contentsOf: Self.web.appendingPathComponent(file)), path: file)
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      try await client.execute(
        uri: "/\(file)", method: .get, headers: [.acceptEncoding: "gzip, deflate, br, zstd"]
      ) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentEncoding] == "gzip")
        #expect(response.headers[.vary] == "Accept-Encoding")
        let body = Data(response.body.readableBytesView)
        #expect(body.count < original.count / 2, "\(body.count) of \(original.count) bytes")
        #expect(response.headers[.contentLength] == String(body.count))
        let same = Self.gunzip(body).map { HashedWebAssetsTests.plain($0) } == original
        #expect(same)
      }
    }
  }

  @Test func theGzippedCopyHasItsOwnTagAndIsNotSentAgain() async throws {
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      let plain = try await client.execute(uri: "/app.js", method: .get)
      let gzipped = try await client.execute(uri: "/app.js", method: .get, headers: [.acceptEncoding: "gzip"])
      let (plainTag, gzipTag) = (try #require(plain.headers[.eTag]), try #require(gzipped.headers[.eTag]))
      #expect(plainTag != gzipTag)
      #expect(plain.headers[.contentEncoding] == nil)
      try await client.execute(
        uri: "/app.js", method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag]
      ) {
        #expect($0.status == .notModified)
        #expect($0.headers[.contentEncoding] == "gzip")
      }
      // The plain copy's tag does not stand for the gzipped one.
      try await client.execute(
        uri: "/app.js", method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: plainTag]
      ) { #expect($0.status == .ok) }
    }
  }

  @Test(arguments: ["gzip;q=0", "identity", "br", "*;q=0, br", "gzip; q=0.000"])
  func aBrowserThatRefusesGzipGetsTheFileAsItIs(acceptEncoding: String) async throws {
    let original = try Data(contentsOf: Self.web.appendingPathComponent("app.js"))
    try await TestServer.run(configure: { $0.webRoot = nil }) { _, client in
      try await client.execute(uri: "/app.js", method: .get, headers: [.acceptEncoding: acceptEncoding]) {
        #expect($0.headers[.contentEncoding] == nil)
        let same = Data($0.body.readableBytesView) == original
        #expect(same)
      }
    }
  }

  @Test func anyCodingAcceptsGzip() {
    #expect(Gzip.isAccepted(by: "*"))
    #expect(Gzip.isAccepted(by: "br;q=1, *;q=0.5"))
    #expect(!Gzip.isAccepted(by: "br, *;q=0"))
    #expect(Gzip.isAccepted(by: "x-gzip"))
    #expect(!Gzip.isAccepted(by: ""))
  }
}
