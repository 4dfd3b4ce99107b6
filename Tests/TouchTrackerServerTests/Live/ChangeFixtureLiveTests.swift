import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

@testable import TouchTrackerServer

/// The shared change fixtures (`Tests/Support/ChangeFixtures`) through the
/// live server: the base saved, the records sent over the socket, and the
/// drawing `GET` answers is the fixture's.
@Suite struct ChangeFixtureLiveTests {
  @Test(arguments: ChangeFixture.all) func changesSentLiveGiveTheExpectedDrawing(_ fixture: ChangeFixture) async throws
  {
    try await Live.run { port, http in
      let base = DocumentCoder.encodeString(fixture.base)
      try await http.execute(uri: "/api/drawings/d", method: .put, body: ByteBuffer(string: base)) {
        #expect($0.status == .ok)
      }
      try await LiveTestClient.live(port: port, since: 1) { client in
        _ = try await client.message(ofType: "welcome")
        try await client.send(#"{"type":"changes","key":"f1",\#(fixture.changesJSON.dropFirst())"#)
        _ = try await client.message(ofType: "ack")
      }
      let stored = try DocumentCoder.decode(try await Live.document(http))
      #expect(stored == fixture.expected)
    }
  }
}
