import Foundation
import NIOConcurrencyHelpers
import Testing
import TouchTrackerCore
import TouchTrackerStore

@testable import TouchTrackerServer

/// Lines in progress between servers (`PresenceRelay`), without a
/// database: each relay's broadcasts are collected, then heard by the
/// relays of the test, as `NOTIFY` delivers them to every listener.
@Suite struct PresenceRelayTests {
  /// A relay whose broadcasts and whose shown presence are kept.
  final class Probe: Sendable {
    let sent = NIOLockedValueBox<[String]>([])
    let shown = NIOLockedValueBox<[(name: String, client: String, lines: [PresenceLine]?)]>([])
    let relay: PresenceRelay

    init(origin: String) {
      let sent = sent
      let shown = shown
      relay = PresenceRelay(
        origin: origin, heartbeat: .seconds(1), silence: .seconds(4),
        send: { payload in sent.withLockedValue { $0.append(payload) } },
        show: { name, client, lines in shown.withLockedValue { $0.append((name.rawValue, client, lines)) } })
    }

    /// The broadcasts sent since the last call.
    func takeSent() -> [String] {
      sent.withLockedValue { sent in
        defer { sent = [] }; return sent
      }
    }
  }

  static let name = try! DrawingName("shared")
  static let start = ContinuousClock.now

  static func line(_ x: Double, width: Double = 3) -> PresenceLine {
    PresenceLine(begin: Point(x: x, y: 2), end: Point(x: x + 10, y: 20), color: "#336699", width: width)
  }

  /// `from`'s broadcasts, heard by every probe (its own come back to it too).
  static func deliver(_ from: Probe, to probes: [Probe], at now: ContinuousClock.Instant = start) {
    for payload in from.takeSent() {
      for probe in probes { probe.relay.hear(payload, now: now) }
    }
  }

  @Test func anotherServersClientIsShownDrawingLiftingAndLeaving() async {
    let (a, b) = (Probe(origin: "aaaa"), Probe(origin: "bbbb"))
    a.relay.relay(Self.name, client: "0000000a", lines: [Self.line(1)])
    await a.relay.tick(now: Self.start)
    Self.deliver(a, to: [a, b])
    #expect(a.shown.withLockedValue { $0.isEmpty }, "a server does not show its own clients to itself")
    var shown = b.shown.withLockedValue { $0 }
    #expect(shown.count == 1)
    #expect(shown.first?.name == "shared" && shown.first?.client == "0000000a")
    #expect(shown.first?.lines == [Self.line(1)])

    a.relay.relay(Self.name, client: "0000000a", lines: [])
    a.relay.relay(Self.name, client: "0000000a", lines: nil)
    await a.relay.tick(now: Self.start)
    Self.deliver(a, to: [a, b])
    shown = b.shown.withLockedValue { $0 }
    #expect(shown.count == 2, "the newest of a batch only: it left")
    #expect(shown.last?.client == "0000000a" && shown.last?.lines == nil)
  }

  @Test func aBatchKeepsTheNewestLinesOfEachClientInTheOrderFirstSent() async {
    let (a, b) = (Probe(origin: "aaaa"), Probe(origin: "bbbb"))
    a.relay.relay(Self.name, client: "0000000a", lines: [Self.line(1)])
    a.relay.relay(Self.name, client: "0000000c", lines: [Self.line(5)])
    a.relay.relay(Self.name, client: "0000000a", lines: [Self.line(2), Self.line(3)])
    await a.relay.tick(now: Self.start)
    let sent = a.sent.withLockedValue { $0 }
    #expect(sent.count == 1, "one broadcast for the batch")
    Self.deliver(a, to: [b])
    let shown = b.shown.withLockedValue { $0 }
    #expect(shown.map(\.client) == ["0000000a", "0000000c"])
    #expect(shown.first?.lines == [Self.line(2), Self.line(3)])
  }

  @Test func theClientsOfAServerGoneSilentLeaveTheOthersScreens() async {
    let (a, b) = (Probe(origin: "aaaa"), Probe(origin: "bbbb"))
    a.relay.relay(Self.name, client: "0000000a", lines: [Self.line(1)])
    a.relay.relay(Self.name, client: "0000000c", lines: [])  // lifted: nothing to take back
    await a.relay.tick(now: Self.start)
    Self.deliver(a, to: [b])
    await b.relay.tick(now: Self.start + .seconds(3))
    #expect(b.shown.withLockedValue { $0.count } == 2, "heard 3 s ago: still there")
    await b.relay.tick(now: Self.start + .seconds(4))
    let shown = b.shown.withLockedValue { $0 }
    #expect(shown.count == 3)
    #expect(shown.last?.client == "0000000a" && shown.last?.lines == nil)
    await b.relay.tick(now: Self.start + .seconds(9))
    #expect(b.shown.withLockedValue { $0.count } == 3, "said once")
  }

  @Test func aServerWithNothingToSaySendsAHeartbeatOnceASecond() async {
    let (a, b) = (Probe(origin: "aaaa"), Probe(origin: "bbbb"))
    await a.relay.tick(now: Self.start + .milliseconds(400))
    #expect(a.sent.withLockedValue { $0.isEmpty })
    await a.relay.tick(now: Self.start + .seconds(2))
    #expect(a.takeSent() == [#"{"o":"aaaa","p":[]}"#])
    // A heartbeat keeps the server's people on the others' screens.
    a.relay.relay(Self.name, client: "0000000a", lines: [Self.line(1)])
    await a.relay.tick(now: Self.start + .seconds(2))
    Self.deliver(a, to: [b], at: Self.start + .seconds(2))
    await a.relay.tick(now: Self.start + .seconds(5))
    Self.deliver(a, to: [b], at: Self.start + .seconds(5))
    await b.relay.tick(now: Self.start + .seconds(7))
    #expect(b.shown.withLockedValue { $0.count } == 1, "heard 2 s ago: still drawing")
  }

  @Test func broadcastsStayUnderNotifysLimitAndKeepEveryClient() {
    let long = PresenceLine(
      begin: Point(x: -123_456.789_012_345, y: 987_654.321_098_76), end: Point(x: 0.000_123_456_789, y: -1e8 / 3),
      color: "#336699", width: 1.234_567_890_123)
    let keys = (0..<40).map { PresenceRelay.Key(name: Self.name, client: String(format: "%08x", $0)) }
    let entries: [(PresenceRelay.Key, [PresenceLine]?)] = keys.map {
      ($0, $0.client == "00000003" ? nil : Array(repeating: long, count: PresenceLine.maximumCount))
    }
    let payloads = PresenceRelay.payloads(origin: "aaaa", entries: entries)
    #expect(payloads.count > 1)
    #expect(payloads.allSatisfy { $0.utf8.count <= maximumBroadcastLength })
    let b = Probe(origin: "bbbb")
    for payload in payloads { b.relay.hear(payload, now: Self.start) }
    let shown = b.shown.withLockedValue { $0 }
    #expect(shown.map(\.client) == keys.map(\.client), "every client, in order")
    #expect(shown[3].lines == nil)
    #expect(shown[0].lines?.first == long)
    #expect((shown[0].lines?.count ?? 0) < PresenceLine.maximumCount, "an entry too long keeps the lines that fit")
  }

  @Test(arguments: [
    "not json",
    #"{"o":"aaaa"}"#,
    #"{"o":7,"p":[]}"#,
    #"{"o":"aaaa","p":[{"d":"../x","b":"0000000a","lines":[]}]}"#,
    #"{"o":"aaaa","p":[{"d":"shared","b":"zz","lines":[]}]}"#,
    #"{"o":"aaaa","p":[{"d":"shared","b":"0000000a","lines":[{"begin":1}]}]}"#,
    #"{"o":"aaaa","p":[{"d":"shared","b":"0000000a","lines":"x"}]}"#,
  ])
  func aBroadcastNotInTheFormIsSkipped(payload: String) {
    let b = Probe(origin: "bbbb")
    b.relay.hear(payload, now: Self.start)
    #expect(b.shown.withLockedValue { $0.isEmpty })
  }
}
