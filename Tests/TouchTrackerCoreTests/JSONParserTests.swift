import Testing
import TouchTrackerCore
import TouchTrackerTestSupport

/// The core's own JSON: what it accepts, what it writes back, and the one
/// line it says about bad input ("Invalid JSON at line 3, column 14: ...").
@Suite struct JSONParserTests {
  // MARK: Round trips

  @Test(arguments: [
    (#"{"a": [1, -2.5, true, false, null], "b": {}}"#, #"{"a":[1,-2.5,true,false,null],"b":{}}"#),
    (#"  [ ]  "#, "[]"),
    (#"{"z": 1, "a": 2, "m": 3}"#, #"{"z":1,"a":2,"m":3}"#),
    (
      #""quote \" backslash \\ slash \/ newline \n tab \t return \r""#,
      #""quote \" backslash \\ slash / newline \n tab \t return \r""#
    ),
    (#""\u00e9 \ud83d\ude00 é""#, #""é 😀 é""#),
    (#""\u0001\b\f""#, #""\u0001\u0008\u000c""#),
    ("0", "0"),
    ("-0", "0"),
    ("1.5e2", "150"),
    ("2.5E-1", "0.25"),
    ("123456.789", "123456.789"),
    ("{\r\n\t\"x\" : 10 ,\n \"y\":20\n}", #"{"x":10,"y":20}"#),
  ])
  func validJSONIsWrittenBackCompactly(input: String, compact: String) throws {
    let value = try JSONParser.parse(input)
    var writer = JSONWriter()
    writer.write(value)
    #expect(writer.string == compact)
    #expect(try JSONParser.parse(writer.string) == value)
  }

  @Test func objectsKeepTheirKeysInDocumentOrder() throws {
    let value = try JSONParser.parse(#"{"b": 1, "a": {"d": 2, "c": 3}}"#)
    #expect(
      value
        == .object([
          ("b", .number(1)),
          ("a", .object([("d", .number(2)), ("c", .number(3))])),
        ]))
  }

  @Test func sixtyFourLevelsOfNestingAreAccepted() throws {
    let text = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    var writer = JSONWriter()
    writer.write(try JSONParser.parse(text))
    #expect(writer.string == text)
  }

  @Test func tinyNumbersBecomeZeroInsteadOfFailing() throws {
    #expect(try JSONParser.parse("1e-400") == .number(0))
    #expect(try JSONParser.parse("-1e-999") == .number(0))
    #expect(try JSONParser.parse("0e999") == .number(0))
  }

  // MARK: Errors, word for word

  @Test(arguments: [
    // Unexpected end
    ("", 1, 1, "unexpected end of input"),
    ("[1, ", 1, 5, "unexpected end of input"),
    (#"{"a": "#, 1, 7, "unexpected end of input"),
    ("{\n  \"a\": [1,\n", 3, 1, "unexpected end of input"),
    (#""abc"#, 1, 5, "unterminated string"),
    // Trailing text
    ("{} x", 1, 4, "unexpected text after the end"),
    ("[1]\n[2]", 2, 1, "unexpected text after the end"),
    ("01", 1, 2, "unexpected text after the end"),
    // Other structure
    ("x", 1, 1, "unexpected character 'x'"),
    ("tru", 1, 1, "unexpected character 't'"),
    (#"["é", x]"#, 1, 7, "unexpected character 'x'"),
    (#"{"a": 1 "b": 2}"#, 1, 9, "expected ',' or '}'"),
    ("[1 2]", 1, 4, "expected ',' or ']'"),
    ("{1: 2}", 1, 2, "expected a string key"),
    (#"{"a" 1}"#, 1, 6, "expected ':' after a key"),
    ("-", 1, 2, "invalid number"),
    ("1.", 1, 3, "invalid number"),
    ("1e+", 1, 4, "invalid number"),
    // Strings: the column is where the offending escape or character is.
    (#""a\qb""#, 1, 3, #"invalid escape '\q'"#),
    ("[\"ok\",\n \"bad \\x\"]", 2, 7, #"invalid escape '\x'"#),
    ("\"a\tb\"", 1, 3, "control character in string"),
    ("\"line\nbreak\"", 1, 6, "control character in string"),
    (#""\u12G4""#, 1, 6, "invalid unicode escape"),
    // Duplicate keys: the column is the second key's.
    (#"{"a": 1, "a": 2}"#, 1, 10, "duplicate key 'a'"),
    ("{\n  \"x\": 1,\n  \"x\": [1, 2, 3]\n}", 3, 3, "duplicate key 'x'"),
    // Deep nesting: the 65th bracket is refused.
    (String(repeating: "[", count: 65) + String(repeating: "]", count: 65), 1, 65, "nesting deeper than 64 levels"),
    (String(repeating: #"{"a":"#, count: 70), 1, 321, "nesting deeper than 64 levels"),
    // Non-finite numbers are named, not blamed on their first letter.
    ("NaN", 1, 1, "non-finite number 'NaN'"),
    ("[Infinity]", 1, 2, "non-finite number 'Infinity'"),
    (#"{"x": -Infinity}"#, 1, 7, "non-finite number '-Infinity'"),
    ("[1,\n  NaN]", 2, 3, "non-finite number 'NaN'"),
    // Overflow to infinity is refused; the column is where the number starts.
    ("1e999", 1, 1, "number out of range '1e999'"),
    ("[0, -1e999]", 1, 5, "number out of range '-1e999'"),
    (#"{"x": 1.5e309}"#, 1, 7, "number out of range '1.5e309'"),
  ])
  func invalidJSONIsNamedWithLineAndColumn(input: String, line: Int, column: Int, problem: String) {
    #expect(parseError(input) == "Invalid JSON at line \(line), column \(column): \(problem)")
  }

  @Test func theErrorCarriesLineColumnAndProblemApart() {
    #expect(throws: JSONError.self) { try JSONParser.parse("{\n  \"x\": NaN\n}") }
    do {
      _ = try JSONParser.parse("{\n  \"x\": NaN\n}")
    } catch {
      #expect(error.line == 2)
      #expect(error.column == 8)
      #expect(error.problem == "non-finite number 'NaN'")
    }
  }

  /// The message of the error parsing `text` throws, or nil if it parses.
  private func parseError(_ text: String) -> String? {
    do {
      _ = try JSONParser.parse(text)
      return nil
    } catch {
      return error.message
    }
  }

  // MARK: Number formatting

  @Test(arguments: [
    (0.0, "0"),
    (100.0, "100"),
    (800.0, "800"),
    (-7.0, "-7"),
    (12.5, "12.5"),
    (-12.5, "-12.5"),
    (0.1, "0.1"),
    (0.1 + 0.2, "0.3"),
    (1.1, "1.1"),
    (2.25, "2.25"),
    (1.0 / 3.0, "0.3333"),
    (2.0 / 3.0, "0.6667"),
    (-2.0 / 3.0, "-0.6667"),
    (1.23456789, "1.2346"),
    (9.99999, "10"),
    (-9.99999, "-10"),
    (123456.789, "123456.789"),
    (-0.0, "0"),
    (-0.00001, "0"),
    (0.00001, "0"),
    (1e-10, "0"),
    (1e15, "1000000000000000"),
    (32_423_284_834_305, "32423284834305"),
    (999_999_999_999.5, "999999999999.5"),
    (9_007_199_254_740_991, "9007199254740991"),
  ])
  func numbersAreWrittenShort(value: Double, text: String) {
    #expect(NumberText.format(value) == text)
  }

  /// Integers up to 2^53 - 1 (every id a shape may have) are written
  /// digit for digit, at every magnitude.
  @Test func integersUpTo2To53AreWrittenExactly() throws {
    var generator = SplitMix64(seed: 53)
    for round in 0..<5000 {
      let bits = UInt64(round % 53 + 1)
      let integer = generator.next() & ((1 << bits) - 1)
      let text = NumberText.format(Double(integer))
      #expect(text == String(integer))
      #expect(try JSONParser.parse(text) == .number(Double(integer)))
    }
  }

  /// Every number with at most four decimals survives writing and reading
  /// exactly, so saved coordinates do not drift.
  @Test func fourDecimalNumbersSurviveWritingAndReading() throws {
    var generator = SplitMix64(seed: 42)
    for _ in 0..<5000 {
      let tenThousandths = Int64(bitPattern: generator.next()) % 1_000_000_000_000
      let value = Double(tenThousandths) / 10_000
      let magnitude = tenThousandths.magnitude
      var expected = tenThousandths < 0 ? "-" : ""
      expected += String(magnitude / 10_000)
      var fraction = String(magnitude % 10_000)
      if fraction != "0" {
        fraction = String(repeating: "0", count: 4 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        expected += "." + fraction
      }
      let text = NumberText.format(value)
      #expect(text == expected)
      #expect(try JSONParser.parse(text) == .number(value))
    }
  }
}
