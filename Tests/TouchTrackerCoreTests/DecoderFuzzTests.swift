import PropertyBased
import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

/// Fuzzing the document and trace decoders for a bounded time in every test
/// run (`DecoderOracle` says what must hold). Scripts/fuzz-decoders.sh runs
/// the same oracle under libFuzzer for as long as you like.
@Suite struct DecoderFuzzTests {
  @Test(arguments: DecoderSeeds.all)
  func everySeedDecodesAndRoundTrips(seed: String) {
    #expect(DecoderOracle.check(Array(seed.utf8)) == nil)
    let decodes =
      (try? DocumentCoder.decode(seed)) != nil || (try? Trace.decode(seed)) != nil
    #expect(decodes, "a seed that does not decode tests only the error paths")
  }

  /// A few thousand mutants, each mutated again half the time, so that
  /// several changes pile up.
  @Test func mutatedDocumentsAndTracesDecodeOrFailWithOneLine() {
    Self.fuzz(DecoderSeeds.all, mutatorSeed: 8, step: 7, offset: 3, DecoderOracle.check)
  }

  /// 4,000 mutants of `seeds`, each mutated again half the time (crossed
  /// with the seed `step` and `offset` pick), until `oracle` finds one broken.
  static func fuzz(
    _ seeds: [String], mutatorSeed: UInt64, step: Int, offset: Int, _ oracle: ([UInt8]) -> String?
  ) {
    var mutator = InputMutator(seed: mutatorSeed)
    let seeds = seeds.map { Array($0.utf8) }
    var input = seeds[0]
    for round in 0..<4_000 {
      if round % 2 == 0 { input = seeds[round / 2 % seeds.count] }
      input = mutator.mutate(input, other: seeds[(round * step + offset) % seeds.count])
      if let failure = oracle(input) {
        Issue.record("\(failure)\ninput: \(String(decoding: input, as: UTF8.self))")
        return
      }
    }
  }

  /// Changes in the app's shape are read straight into changes, the same
  /// as through the tree; mutants of them decode alike or fail alike.
  @Test(arguments: DecoderSeeds.changes)
  func everyChangeSeedDecodesStraightAsThroughTheTree(seed: String) throws {
    let bytes = Array(seed.utf8)
    #expect(DecoderOracle.check(bytes) == nil)
    let decoded = (try? ChangeCoder.decode(bytes: bytes)).map { [$0] } ?? (try? ChangeCoder.decodeList(bytes: bytes))
    #expect(decoded != nil, "a seed that does not decode tests only the error paths")
  }

  @Test func mutatedChangesDecodeStraightAsThroughTheTree() {
    Self.fuzz(DecoderSeeds.changes, mutatorSeed: 15, step: 5, offset: 1, DecoderOracle.checkChanges)
  }

  /// Random drawings within the format's limits survive a save and a load:
  /// the encoding is the same after one more round trip.
  @Test func randomDrawingsWithinTheLimitsRoundTrip() async {
    let coordinate = Gen.int(in: -10_000_000_000_000...10_000_000_000_000).map { Double($0) / 10_000 }
    let line = zip(coordinate, coordinate, coordinate, coordinate, Gen.int(in: 0...0xFF_FFFF))
    await seededPropertyCheck(count: 200, input: line.array(of: 0...20)) { lines in
      var drawing = Drawing()
      drawing.lines = lines.map {
        Line(begin: Point(x: $0.0, y: $0.1), end: Point(x: $0.2, y: $0.3), color: Color(rgb: UInt32($0.4)), width: 10)
      }
      let bytes = Array(DocumentCoder.encode(drawing))
      let failure = DecoderOracle.check(bytes)
      #expect(failure == nil)
      let decoded = (try? DocumentCoder.decode(bytes: bytes))?.withoutIDs
      #expect(decoded == drawing)
      return failure == nil && decoded == drawing
    }
  }

  // MARK: The attack cases of the hardening issue

  @Test(arguments: [
    ("keys", "{\"format\": \"touchtracker\", \"version\": 1" + manyKeys(100_000) + "}"),
    ("deep", String(repeating: "[", count: 100_000)),
    ("deep objects", String(repeating: #"{"lines":"#, count: 10_000)),
    ("NaN", #"{"format": "touchtracker", "version": 1, "lines": [{"begin": {"x": NaN, "y": 0}}]}"#),
    ("huge", #"{"format": "touchtracker", "version": 1, "circles": [{"center": {"x": 1e308, "y": 0}}]}"#),
    ("beyond", #"{"events": [{"time": 0, "touches": [{"id": 1, "phase": "began", "x": 1e10, "y": 0}]}]}"#),
    ("escape", "{\"events\": [{\"time\": 0, \"tap\": \"\\u001b]0;x\\u0007\"}]}"),
    ("newline", "{\"events\": [{\"time\": 0, \"action\": \"undo\\nError: fake\"}]}"),
    ("raw control", "{\"format\": \"\u{1B}[2J\"}"),
    ("touches", tooManyTouches()),
  ])
  func anAttackCaseDecodesOrFailsWithOneLine(name: String, input: String) {
    #expect(DecoderOracle.check(Array(input.utf8)) == nil, "\(name)")
  }

  @Test func moreTouchesDownThanAnyScreenIsRefusedWithItsPlace() {
    #expect(throws: FormatError("More than 100 touches down at once at events[0].touches[100]")) {
      try Trace.decode(tooManyTouches())
    }
  }
}

private func manyKeys(_ count: Int) -> String {
  (0..<count).map { ",\"k\($0)\":\($0)" }.joined()
}

/// One event in which 20,000 fingers begin (a linear search per finger
/// made this quadratic).
private func tooManyTouches() -> String {
  let touches = (0..<20_000).map { #"{"id": \#($0), "phase": "began", "x": 1, "y": 2}"# }
  return #"{"events": [{"time": 0, "touches": ["# + touches.joined(separator: ",") + "]}]}"
}
