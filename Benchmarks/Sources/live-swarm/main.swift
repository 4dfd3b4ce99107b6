// live-swarm: the clients of `Benchmarks/server/live.py` (loads a and b) in one
// Swift process on SwiftNIO, for when Python's clients cost more CPU than the
// server they measure (100 clients at 10 changes/s receive ~100,000 messages a
// second; four Python processes needed 3.2 CPU s/s for it on 2 cores).
//
//     live-swarm < PLAN.json > REPORTS.json
//
// PLAN: {"ports": [P, ...], "assignments": [{"drawing": D, "index": I, "keep": K}, ...],
//        "rate": R, "startAt": T, "seconds": S, "quietFor": Q}
// with T in CLOCK_MONOTONIC seconds (Python's `time.monotonic()`). Each client
// behaves as live.py's `Client`: it says hello, sends R one-line batches a
// second from T until T + S (key "c<index>-<serial>-<monotonic ns>"),
// receives everything, and closes once its batches are all acknowledged and
// the socket has been quiet for Q seconds. It reconnects on the next port
// with backoff and sends its unacknowledged batches again, but it does not
// read documents: after a `reset` it reconnects and says hello from the last
// revision it saw, and the log's backlog answers (load c, whose resets
// follow a kill, stays on live.py's own clients).
//
// REPORTS: {"reports": [...], "cpu": the process's CPU seconds}, one report per
// client in live.py's shape; a client with "keep" lists the changes messages
// it got ("kept": [[revision, text], ...]) so that live.py rebuilds its copy
// of the drawing and compares it with the server's.
//
// A room of many (Benchmarks/server/room.py) adds to the plan:
//   "drawers": N      only the first N assignments send; the rest watch;
//   "presenceRate": P the drawers also send P presence messages a second,
//                     one line in progress whose begin carries the send time
//                     (x: monotonic seconds, y: the microseconds after them),
//                     halfway between their batches;
//   "idle": true      nobody sends: each client says hello and holds its
//                     socket until T + S (10,000 idle connections);
//   "connectOver": C  client i connects at i / count × C seconds, not all at once;
//   "compact": true   no per-client latencies or revision lists: each report
//                     says "seenCount", "seenLast" and "inOrder", and the
//                     output has "changes" and "presence" summaries
//                     (count, p50, p99, max in microseconds over every receipt).
// It prints "live-swarm: all N welcomed" to stderr once every client has
// had its first welcome, so that the driver measures the server then.

import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

struct Assignment: Decodable, Sendable {
  let drawing: String
  let index: Int
  let keep: Bool
}

struct Plan: Decodable, Sendable {
  let ports: [Int]
  let assignments: [Assignment]
  let rate: Double
  let startAt: Double
  let seconds: Double
  let quietFor: Double
  var drawers: Int?
  var presenceRate: Double?
  var idle: Bool?
  var connectOver: Double?
  var compact: Bool?
}

enum Counters {
  /// How many clients have had their first welcome.
  static let welcomed = Atomic<Int>(0)
}

func monotonicNanoseconds() -> Int {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return now.tv_sec * 1_000_000_000 + now.tv_nsec
}

func sleep(untilNanoseconds deadline: Int) async throws {
  let wait = deadline - monotonicNanoseconds()
  if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait)) }
}

/// The one-line batch live.py sends, byte for byte.
func batchText(key: String, lineID: Int) -> String {
  #"{"type":"changes","key":"\#(key)","changes":[{"op":"add","lines":[{"id":\#(lineID),"#
    + ##""begin":{"x":\##(lineID % 997),"y":2},"end":{"x":3,"y":\##(lineID % 991)},"color":"#000000","width":2}]}]}"##
}

/// A presence message of one line in progress whose begin is the send time
/// (see the plan's "presenceRate").
func presenceText(sentAtMicroseconds micros: Int) -> String {
  #"{"type":"presence","lines":[{"begin":{"x":\#(micros / 1_000_000),"y":\#(micros % 1_000_000)},"#
    + ##""end":{"x":3,"y":4},"color":"#000000","width":2}]}"##
}

/// The send time in a relayed `presence` (monotonic ns), nil if it has no line.
func presenceSentAt(_ text: String) -> Int? {
  var text = text
  return text.withUTF8 { bytes -> Int? in
    func integer(after needle: StaticString) -> Int? {
      guard var index = Skim.find(needle, in: bytes) else { return nil }
      var value = 0
      let start = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        value = value * 10 + Int(bytes[index] - 48)
        index += 1
      }
      return index > start ? value : nil
    }
    guard let seconds = integer(after: #""x":"#), let micros = integer(after: #""y":"#) else { return nil }
    return (seconds * 1_000_000 + micros) * 1000
  }
}

/// What a client needs of a server message without parsing it: its type's
/// first letter, its revision, the send time at the end of a harness key
/// ("c<index>-<serial>-<ns>"), and the key itself only when it is the
/// client's own (`ownPrefix`) or the message an ack: the ~1,000 messages a
/// second of others' changes each client gets make no strings.
struct Skim {
  var type: UInt8 = 0
  var revision = -1
  var sentAt: Int?
  var ownKey: String?

  init(_ text: String, ownPrefix: [UInt8]) {
    var text = text
    text.withUTF8 { bytes in
      guard bytes.count > 9 else { return }
      type = bytes[9]  // {"type":"X
      if let at = Skim.find(#""revision":"#, in: bytes) {
        var value = 0
        var index = at
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
          value = value * 10 + Int(bytes[index] - 48)
          index += 1
        }
        revision = value
      }
      guard let at = Skim.find(#""key":""#, in: bytes) else { return }
      var end = at
      var dash = -1
      while end < bytes.count, bytes[end] != 34 {
        if bytes[end] == 45 { dash = end }
        end += 1
      }
      let key = UnsafeBufferPointer(rebasing: bytes[at..<end])
      if key.first == UInt8(ascii: "c"), dash > at {
        var value = 0
        for digit in bytes[(dash + 1)..<end] where digit >= 48 && digit <= 57 { value = value * 10 + Int(digit - 48) }
        sentAt = value
      }
      if type == UInt8(ascii: "a") || key.starts(with: ownPrefix) {
        ownKey = String(decoding: key, as: UTF8.self)
      }
    }
  }

  /// The index just after the first occurrence of `needle` in `bytes`.
  static func find(_ needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    let count = needle.utf8CodeUnitCount
    guard bytes.count >= count else { return nil }
    let first = needle.utf8Start[0]
    var index = 0
    while index <= bytes.count - count {
      if bytes[index] == first, memcmp(bytes.baseAddress! + index, needle.utf8Start, count) == 0 {
        return index + count
      }
      index += 1
    }
    return nil
  }
}

/// The messages of a frame: itself, or the members of a JSON array of them
/// (what the server sends a client that said `"batches": true` when several
/// are queued for it).
func messagesOf(_ text: String) -> [String] {
  guard text.utf8.first == UInt8(ascii: "[") else { return [text] }
  var text = text
  return text.withUTF8 { bytes in
    var messages: [String] = []
    var depth = 0
    var inString = false
    var escaped = false
    var start = 1
    for index in 1..<bytes.count {
      let byte = bytes[index]
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == 34 {
          inString = false
        }
        continue
      }
      switch byte {
      case 34: inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 0 {  // the array's own end
          messages.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
          return messages
        }
        depth -= 1
      case UInt8(ascii: ",") where depth == 0:
        messages.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
        start = index + 1
      default: break
      }
    }
    return messages
  }
}

/// One client's state, shared by its receiver, its sender and its watchdog.
struct ClientState {
  var serial = 0
  var pending: [String: (lineID: Int, serial: Int)] = [:]
  var acked: [(lineID: Int, revision: Int)] = []
  var seen: [Int] = []
  var last = 0
  var joined = false
  var kept: [(Int, String)] = []
  var latencies: [Int] = []  // microseconds
  var presenceLatencies: [Int] = []  // microseconds
  var resets = 0
  var mustRejoin = false
  var everWelcomed = false
  var reconnects = 0
  var errors: [String] = []
  var lastMessage = 0  // monotonic ns

  mutating func take(_ text: String, at now: Int, keep: Bool, ownPrefix: [UInt8]) {
    let message = Skim(text, ownPrefix: ownPrefix)
    lastMessage = now
    switch message.type {
    case UInt8(ascii: "a"), UInt8(ascii: "c"):
      guard message.revision >= 0 else {
        errors.append("no revision in \(text.prefix(80))")
        return
      }
      // An ack, or its own change not acknowledged yet (in the backlog a
      // client that reconnected gets): live.py's `Client.take`, step by step.
      if let key = message.ownKey, message.type == UInt8(ascii: "a") || pending[key] != nil {
        if let sent = pending.removeValue(forKey: key) {
          acked.append((sent.lineID, message.revision))
        }
        // Its own change in a backlog (committed, never acknowledged: the server
        // that took it was killed) is in the stream's order; an ack before
        // welcome is not (after a reset the backlog brings that revision again).
        if message.revision > last && (joined || message.type != UInt8(ascii: "a")) {
          seen.append(message.revision)
          last = message.revision
        }
        return
      }
      if let sent = message.sentAt { latencies.append((now - sent) / 1000) }
      if keep { kept.append((message.revision, text)) }
      seen.append(message.revision)
      last = max(last, message.revision)
    case UInt8(ascii: "e"):
      errors.append(text)
    case UInt8(ascii: "p"):
      if let sent = presenceSentAt(text) { presenceLatencies.append((now - sent) / 1000) }
    case UInt8(ascii: "r") where text.hasPrefix(#"{"type":"reset""#):
      // Too slow for its queue (or the log folded): the server sends it nothing
      // more until its next hello. It does not read documents: it reconnects and
      // says hello from the last revision it saw, and the log's backlog (or
      // another reset, past 500 messages) answers.
      resets += 1
      mustRejoin = true
    default:
      break  // presence, leave, renamed: not part of this load
    }
  }
}

final class Client: Sendable {
  let assignment: Assignment
  let ports: [Int]
  let plan: Plan
  let state = Mutex(ClientState())
  /// The start of its own batches' keys, "c<index>-".
  let ownPrefix: [UInt8]
  let logger = Logger(label: "live-swarm")
  var id: String { String(assignment.index + 1, radix: 16).leftPadded(to: 8) }

  init(_ assignment: Assignment, plan: Plan) {
    self.assignment = assignment
    self.plan = plan
    ownPrefix = Array("c\(assignment.index)-".utf8)
    let first = assignment.index % plan.ports.count
    ports = Array(plan.ports[first...] + plan.ports[..<first])
  }

  func run(startAt: Int, stopSendingAt: Int) async {
    if let over = plan.connectOver, over > 0 {
      let count = max(1, plan.assignments.count)
      try? await Task.sleep(nanoseconds: UInt64(over * 1e9 * Double(assignment.index % count) / Double(count)))
    }
    var delay = 0.1
    var port = 0
    while true {
      do {
        // http://, not ws://: the client sends the scheme as Origin, and the server
        // (rightly) refuses a socket from an Origin that is no web page of its own.
        let url = "http://127.0.0.1:\(ports[port])/api/drawings/\(assignment.drawing)/live"
        try await WebSocketClient.connect(
          url: url, configuration: .init(maxFrameSize: 1 << 24), logger: logger
        ) { inbound, outbound, _ in
          try await self.session(inbound: inbound, outbound: outbound, startAt: startAt, stopSendingAt: stopSendingAt)
        }
        delay = 0.1
        if state.withLock({ $0.pending.isEmpty }) && monotonicNanoseconds() > stopSendingAt { return }
      } catch {
        if monotonicNanoseconds() > stopSendingAt + 60_000_000_000 {
          state.withLock { $0.errors.append("gave up reconnecting: \(error)") }
          return
        }
      }
      state.withLock { $0.reconnects += 1 }
      port = (port + 1) % ports.count
      try? await Task.sleep(nanoseconds: UInt64(delay * Double.random(in: 0.5..<1.5) * 1e9))
      delay = min(2, delay * 2)
    }
  }

  private func session(
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, startAt: Int, stopSendingAt: Int
  ) async throws {
    let since = state.withLock {
      $0.joined = false
      return $0.last
    }
    try await outbound.write(.text(#"{"type":"hello","since":\#(since),"client":"\#(id)","batches":true}"#))
    var messages = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
    var welcomed = false
    while !welcomed, let message = try await messages.next() {
      guard case .text(let text) = message else { continue }
      let now = monotonicNanoseconds()
      try state.withLock { state in
        defer { state.mustRejoin = false }
        for one in messagesOf(text) {
          if one.hasPrefix(#"{"type":"welcome""#) {
            state.joined = true
            welcomed = true
            if !state.everWelcomed {
              state.everWelcomed = true
              if Counters.welcomed.add(1, ordering: .relaxed).newValue == self.plan.assignments.count {
                FileHandle.standardError.write(Data("live-swarm: all \(self.plan.assignments.count) welcomed\n".utf8))
              }
            }
          } else {
            state.take(one, at: now, keep: assignment.keep, ownPrefix: ownPrefix)
          }
        }
        if state.mustRejoin { throw Rejoin() }
      }
    }
    let again = state.withLock { $0.pending.sorted { $0.value.serial < $1.value.serial } }
    for (key, sent) in again {
      try await outbound.write(.text(batchText(key: key, lineID: sent.lineID)))
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      if plan.idle != true && assignment.index < plan.drawers ?? .max {
        group.addTask { try await self.send(outbound, from: startAt, until: stopSendingAt) }
        if let rate = plan.presenceRate, rate > 0 {
          group.addTask { try await self.sendPresence(outbound, rate: rate, from: startAt, until: stopSendingAt) }
        }
      }
      group.addTask { try await self.closeWhenDone(outbound, after: stopSendingAt) }
      while let message = try await messages.next() {
        guard case .text(let text) = message else { continue }
        let now = monotonicNanoseconds()
        try state.withLock { state in
          defer { state.mustRejoin = false }
          for one in messagesOf(text) { state.take(one, at: now, keep: assignment.keep, ownPrefix: ownPrefix) }
          if state.mustRejoin { throw Rejoin() }
        }
      }
      group.cancelAll()
    }
  }

  /// Sends from `start` (or now, after a reconnect), each client at its own
  /// random offset within the first period, until `stop`.
  private func send(_ outbound: WebSocketOutboundWriter, from start: Int, until stop: Int) async throws {
    let period = Int(1e9 / plan.rate)
    var next = max(start, monotonicNanoseconds()) + Int.random(in: 0..<period)
    try await sleep(untilNanoseconds: next)
    while monotonicNanoseconds() < stop {
      let text = state.withLock { state in
        state.serial += 1
        let lineID = (assignment.index + 1) * 1_000_000 + state.serial
        let key = "c\(assignment.index)-\(state.serial)-\(monotonicNanoseconds())"
        state.pending[key] = (lineID, state.serial)
        return batchText(key: key, lineID: lineID)
      }
      try await outbound.write(.text(text))
      next += period
      try await sleep(untilNanoseconds: next)
    }
  }

  /// Presence at `rate` a second, starting half a batch period after the batches.
  private func sendPresence(_ outbound: WebSocketOutboundWriter, rate: Double, from start: Int, until stop: Int)
    async throws
  {
    let period = Int(1e9 / rate)
    var next = max(start, monotonicNanoseconds()) + Int(5e8 / plan.rate) + Int.random(in: 0..<period)
    try await sleep(untilNanoseconds: next)
    while monotonicNanoseconds() < stop {
      try await outbound.write(.text(presenceText(sentAtMicroseconds: monotonicNanoseconds() / 1000)))
      next += period
      try await sleep(untilNanoseconds: next)
    }
  }

  private func closeWhenDone(_ outbound: WebSocketOutboundWriter, after stop: Int) async throws {
    let quiet = Int(plan.quietFor * 1e9)
    while true {
      try await Task.sleep(nanoseconds: 100_000_000)
      let now = monotonicNanoseconds()
      let done = state.withLock { now > stop && $0.pending.isEmpty && now - $0.lastMessage > quiet }
      if done {
        try await outbound.close(.normalClosure, reason: "done")
        return
      }
    }
  }

  func report() -> [String: Any] {
    state.withLock { state in
      if plan.compact == true {
        let inOrder = zip(state.seen, state.seen.dropFirst()).allSatisfy { $1 == $0 + 1 }
        return [
          "index": assignment.index, "drawing": assignment.drawing, "seenCount": state.seen.count,
          "seenFirst": state.seen.first ?? 0, "seenLast": state.seen.last ?? 0, "inOrder": inOrder,
          "acked": state.acked.count, "unacked": state.pending.count, "reconnects": state.reconnects,
          "errors": Array(state.errors.prefix(3)), "welcomed": state.everWelcomed, "resets": state.resets,
        ]
      }
      return [
        "index": assignment.index, "drawing": assignment.drawing, "latencies": state.latencies,
        "seen": state.seen, "acked": state.acked.map { [$0.lineID, $0.revision] },
        "unacked": state.pending.values.map(\.lineID), "reconnects": state.reconnects, "resets": state.resets,
        "errors": state.errors,
        "kept": assignment.keep ? state.kept.map { [$0.0, $0.1] as [Any] } : NSNull(),
      ]
    }
  }
}

/// A `reset` came: the session ends and the client says hello again.
struct Rejoin: Error {}

extension String {
  func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

func cpuSeconds() -> Double {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
  return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

let input = FileHandle.standardInput.readDataToEndOfFile()
let plan: Plan
do {
  plan = try JSONDecoder().decode(Plan.self, from: input)
} catch {
  FileHandle.standardError.write(Data("live-swarm: the plan on stdin is not valid: \(error)\n".utf8))
  exit(2)
}
guard !plan.ports.isEmpty, plan.rate > 0, plan.seconds > 0 else {
  FileHandle.standardError.write(Data("live-swarm: the plan needs ports, a rate > 0 and seconds > 0\n".utf8))
  exit(2)
}
// Every client connects now and starts sending at startAt: the load is
// measured with everyone connected, not while a thousand handshakes queue.
let clients = plan.assignments.map { Client($0, plan: plan) }
let startAt = Int(plan.startAt * 1e9)
let stopSendingAt = startAt + Int(plan.seconds * 1e9)
await withTaskGroup(of: Void.self) { group in
  for client in clients {
    group.addTask { await client.run(startAt: startAt, stopSendingAt: stopSendingAt) }
  }
}
let cpu = cpuSeconds()
/// count, p50, p99 and max of `values` (microseconds).
func summary(_ values: [Int]) -> [String: Int] {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return ["count": 0] }
  func at(_ fraction: Double) -> Int { sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count)))] }
  return ["count": sorted.count, "p50": at(0.5), "p99": at(0.99), "max": sorted.last!]
}
var result: [String: Any] = ["reports": clients.map { $0.report() }, "cpu": cpu]
if plan.compact == true {
  result["changes"] = summary(clients.flatMap { client in client.state.withLock { $0.latencies } })
  result["presence"] = summary(clients.flatMap { client in client.state.withLock { $0.presenceLatencies } })
}
let output = try JSONSerialization.data(withJSONObject: result)
FileHandle.standardOutput.write(output)
