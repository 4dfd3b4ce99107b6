// store-writers: issue 13's saves row measured at the store, where pgbench
// measures PostgreSQL: WRITERS tasks in one process, each appending one small
// change (one line, with a key, as the page sends it) to its own drawing
// through `PostgresDrawingStore` or `SQLiteDrawingStore`, the next as soon as the
// last returned, for SECONDS. `Benchmarks/server/writers.py` runs it beside
// pgbench and the HTTP writers.
//
//     store-writers DATABASE WRITERS SECONDS
//
// DATABASE is a postgres:// URL or a SQLite file's path. Prints
// {"saves": N, "seconds": S, "latenciesMicroseconds": [...sorted]}.

import Foundation
import TouchTrackerCore
import TouchTrackerStore

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data(("store-writers: " + message + "\n").utf8))
  exit(2)
}

func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3, let writers = Int(arguments[1]), let duration = Double(arguments[2]), writers > 0,
  duration > 0
else {
  fail("usage: store-writers DATABASE WRITERS SECONDS")
}
let store: any DrawingStorage
do {
  store =
    arguments[0].hasPrefix("postgres")
    ? try await PostgresDrawingStore(url: arguments[0]) : try SQLiteDrawingStore(path: arguments[0])
} catch {
  fail("cannot open \(arguments[0]): \(error)")
}
// Keys differ from run to run: a second run on the same database would
// otherwise send keys the first one stored, and each would be answered
// from the key table without appending anything.
let run = String(UInt64.random(in: 0..<(1 << 48)), radix: 36)
let stop = seconds() + duration
let started = seconds()
let latencies = try await withThrowingTaskGroup(of: [Int].self) { group in
  for writer in 0..<writers {
    group.addTask {
      let name = try DrawingName("store\(writer)")
      var times: [Int] = []
      var serial = 0
      while seconds() < stop {
        serial += 1
        let line = Line(
          id: ShapeID(rawValue: UInt64(serial)), begin: Point(x: 10.5, y: 20.25), end: Point(x: 300.75, y: 400.5))
        let began = seconds()
        _ = try await store.append(
          [.add(lines: [line], circles: [], at: nil)], to: name, ifRevision: nil, key: "k\(run)-\(writer)-\(serial)")
        times.append(Int((seconds() - began) * 1e6))
      }
      return times
    }
  }
  var all: [Int] = []
  for try await times in group { all += times }
  return all
}
let elapsed = seconds() - started
await store.close()
let output: [String: Any] = ["saves": latencies.count, "seconds": elapsed, "latenciesMicroseconds": latencies.sorted()]
FileHandle.standardOutput.write(try JSONSerialization.data(withJSONObject: output))
