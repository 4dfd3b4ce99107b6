import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import TouchTrackerServer

/// Every response says how long the server took (`Server-Timing`), which the
/// browser's developer tools show beside the request and the storage
/// benchmark reads as the server's own time.
@Suite struct ServerTimingTests {
  static func duration(_ response: TestResponse) throws -> Double {
    let value = try #require(response.headers[.serverTiming])
    let match = try #require(value.wholeMatch(of: /app;dur=(\d+\.\d{3})/), "not app;dur=MS: \(value)")
    return try #require(Double(match.1))
  }

  /// Answers carry it; refusals (404, 400) do not: a precise clock on them
  /// would help someone probing which drawings exist.
  @Test(arguments: SecurityHeadersTests.requests)
  func everyAnswerSaysHowLongTheServerTookAndNoRefusalDoes(
    uri: String, method: HTTPRequest.Method, status: HTTPResponse.Status
  ) async throws {
    try await TestServer.run { _, client in
      try await client.execute(uri: uri, method: method) {
        #expect($0.status == status)
        if status.code < 400 {
          let milliseconds = try Self.duration($0)
          #expect(milliseconds >= 0 && milliseconds < 60_000)
        } else {
          #expect($0.headers[.serverTiming] == nil)
        }
      }
    }
  }

  @Test func aSavedChangeSaysHowLongTheSaveTook() async throws {
    try await TestServer.run { _, client in
      try await client.execute(
        uri: "/api/drawings/d/changes", method: .post,
        body: ChangesAPITests.body(ChangesAPITests.addJSON(1)).buffer
      ) {
        #expect($0.status == .ok)
        // The save wrote the database, so it took some time: at least a microsecond.
        let milliseconds = try Self.duration($0)
        #expect(milliseconds >= 0.001 && milliseconds < 60_000)
      }
    }
  }

  @Test(arguments: [
    (Duration.zero, "app;dur=0.000"),
    (.microseconds(412), "app;dur=0.412"),
    (.milliseconds(1234) + .microseconds(5), "app;dur=1234.005"),
    (.nanoseconds(999), "app;dur=0.000"),
    (.seconds(-1), "app;dur=0.000"),
  ])
  func theValueIsMillisecondsWithThreeDecimals(elapsed: Duration, value: String) {
    #expect(ServerTimingMiddleware<BasicRequestContext>.value(elapsed: elapsed) == value)
  }
}
