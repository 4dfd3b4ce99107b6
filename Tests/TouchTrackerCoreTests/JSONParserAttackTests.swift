import Testing
import TouchTrackerCore

/// Hostile JSON from the hardening issue: huge objects, deep nesting,
/// non-finite and enormous numbers, control characters. Each is parsed in
/// time linear in its size (no test here times anything: see
/// Benchmarks/Benchmarks/JSONParse and Scripts/measure-parse.sh) and refused
/// with the same one line as before.
@Suite struct JSONParserAttackTests {
  /// `{"k0":0,"k1":1,...}` with `count` keys, then `extra` members as written.
  private func object(keys count: Int, extra: String = "") -> String {
    var text = "{"
    for index in 0..<count {
      if index > 0 { text += "," }
      text += "\"k\(index)\":\(index)"
    }
    return text + extra + "}"
  }

  private func parseError(_ text: String) -> String? {
    do {
      _ = try JSONParser.parse(text)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func aHundredThousandDistinctKeysAreParsed() throws {
    let value = try JSONParser.parse(object(keys: 100_000))
    guard case .object(let members) = value else {
      Issue.record("not an object")
      return
    }
    #expect(members.count == 100_000)
    #expect(members[99_999].key == "k99999")
    #expect(value["k54321"] == .number(54321))
  }

  @Test func aDuplicateKeyAfterAHundredThousandIsRefusedWithItsPlace() {
    let text = object(keys: 100_000, extra: #","k77777":1"#)
    let column = text.count - #""k77777":1}"#.count + 1
    #expect(parseError(text) == "Invalid JSON at line 1, column \(column): duplicate key 'k77777'")
  }

  /// Small objects compare keys one by one, large ones hash them: a
  /// duplicate of any earlier key is found on both sides of the switch.
  @Test(arguments: [1, 2, 7, 8, 9, 10, 31, 32, 33, 64, 65, 200])
  func aDuplicateOfAnyEarlierKeyIsRefused(count: Int) {
    for repeated in 0..<count {
      let text = object(keys: count, extra: ",\"k\(repeated)\":0")
      let column = text.count - "\"k\(repeated)\":0}".count + 1
      #expect(parseError(text) == "Invalid JSON at line 1, column \(column): duplicate key 'k\(repeated)'")
    }
  }

  @Test func keysAreTheSameWhenTheirTextIsTheSameAfterEscapes() {
    #expect(parseError(#"{"é": 1, "\u00e9": 2}"#) == "Invalid JSON at line 1, column 10: duplicate key 'é'")
    #expect(parseError(#"{"a\/b": 1, "a/b": 2}"#) == "Invalid JSON at line 1, column 13: duplicate key 'a/b'")
  }

  @Test func keysThatDifferOnlyInUnicodeNormalizationAreDifferentKeys() throws {
    // RFC 8259 compares keys by their code units: "é" and "e" + U+0301 differ.
    let value = try JSONParser.parse("{\"\u{E9}\": 1, \"e\u{301}\": 2}")
    guard case .object(let members) = value else { return }
    #expect(members.count == 2)
  }

  @Test func nestingAHundredThousandDeepIsRefusedAtLevelSixtyFive() {
    let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(parseError(text) == "Invalid JSON at line 1, column 65: nesting deeper than 64 levels")
    let objects = String(repeating: #"{"a":"#, count: 100_000)
    #expect(parseError(objects) == "Invalid JSON at line 1, column 321: nesting deeper than 64 levels")
  }

  @Test func aMillionDigitNumberIsRefusedAsOutOfRange() {
    let digits = "1" + String(repeating: "0", count: 1_000_000)
    let message = parseError("[\(digits)]")
    #expect(message == "Invalid JSON at line 1, column 2: number out of range '\(digits)'")
  }

  @Test func aMillionDigitFractionIsParsed() throws {
    let text = "0." + String(repeating: "0", count: 1_000_000) + "1"
    #expect(try JSONParser.parse(text) == .number(0))
  }

  @Test func aHugeExponentIsRefusedAndATinyOneIsZero() {
    #expect(
      parseError("1e99999999999999999999")
        == "Invalid JSON at line 1, column 1: number out of range '1e99999999999999999999'")
    #expect(parseError("1e-99999999999999999999") == nil)
  }

  @Test func manyNaNsAreRefusedAtTheFirst() {
    let text = "[" + Array(repeating: "NaN", count: 100_000).joined(separator: ",") + "]"
    #expect(parseError(text) == "Invalid JSON at line 1, column 2: non-finite number 'NaN'")
  }

  @Test(arguments: [
    ("[\"a\u{1B}[31mb\"]", "Invalid JSON at line 1, column 4: control character in string"),
    ("[\u{07}]", "Invalid JSON at line 1, column 2: unexpected character '\\u0007'"),
    ("[\"\\\u{1B}\"]", "Invalid JSON at line 1, column 3: invalid escape '\\\\u001b'"),
    ("{\"a\u{7F}\": 1, \"a\u{7F}\": 2}", "Invalid JSON at line 1, column 11: duplicate key 'a\\u007f'"),
    ("[\n\u{0}]", "Invalid JSON at line 2, column 1: unexpected character '\\u0000'"),
  ])
  func controlCharactersInErrorsAreEscaped(input: String, message: String) {
    #expect(parseError(input) == message)
  }

  @Test func aLongStringOfEscapesIsParsed() throws {
    let text = "\"" + String(repeating: #"\u00e9\n"#, count: 100_000) + "\""
    #expect(try JSONParser.parse(text) == .string(String(repeating: "é\n", count: 100_000)))
  }
}
