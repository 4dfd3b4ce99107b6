import Foundation
import PropertyBased
import Testing

/// A property checked over the same inputs on every run, or explored.
///
/// `propertyCheck` draws new random inputs on every run. That is how new
/// failures are found, but then a run that must pass before a change lands
/// (CI on a fresh clone) fails by chance, on a bug the change did not make
/// (it happened: the random-touch check failed CI on bugs older than the
/// change it was checking). So by default a property is checked over
/// `count` inputs drawn from one fixed seed, the same on every machine and
/// every run; the body says whether the input passed, and a failure names
/// the input's number and its seed.
///
/// With `TOUCHTRACKER_EXPLORE=N` in the environment it is checked over N
/// fresh random inputs instead, through `propertyCheck`, which shrinks a
/// failing input and names its seed:
///
///     TOUCHTRACKER_EXPLORE=5000 swift test --filter RandomTouchPropertyTests
///
/// Each bug exploring finds becomes a test of its own input.
func seededPropertyCheck<Value, Shrink: SendableSequenceType>(
  count: Int, input: Generator<Value, Shrink>, sourceLocation: SourceLocation = #_sourceLocation,
  perform body: (Value) async -> Bool
) async {
  if let runs = ProcessInfo.processInfo.environment["TOUCHTRACKER_EXPLORE"].flatMap({ Int($0) }), runs > 0 {
    await propertyCheck(count: runs, input: input, perform: { _ = await body($0) }, sourceLocation: sourceLocation)
    return
  }
  var random = Xoshiro(seed: (0x7475_6368, 0x7472_6163, 0x6B65_7221, 0x5EED))
  for number in 0..<count {
    let seed = random.currentSeed
    if await body(input.run(using: &random)) { continue }
    Issue.record(
      """
      Input \(number) of \(count) failed. To reproduce it alone, add `.fixedSeed("\(seed)")` to the test \
      and run it with TOUCHTRACKER_EXPLORE=1.
      """, sourceLocation: sourceLocation)
    return
  }
}
