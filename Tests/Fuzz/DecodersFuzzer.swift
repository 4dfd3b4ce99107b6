/// The libFuzzer entry point for the document and trace decoders (built and
/// run by Scripts/fuzz-decoders.sh, not by SwiftPM). Each input goes through
/// `DecoderOracle` (Tests/TouchTrackerCoreTests/Fuzzing), the same check the
/// bounded fuzzing in `swift test` runs; a broken promise stops the fuzzer
/// with the input saved as a crash file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoders(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: count))
  if let failure = DecoderOracle.check(bytes) { fatalError(failure) }
  return 0
}
