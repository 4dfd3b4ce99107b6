import Testing
import TouchTrackerStore

@Suite struct DrawingNameTests {
  @Test(arguments: ["default", "a", "A-Z_a-z_0-9", String(repeating: "x", count: 64)])
  func namesOfLettersDigitsUnderscoresAndHyphensAreValid(text: String) throws {
    #expect(try DrawingName(text).rawValue == text)
  }

  @Test(arguments: ["", String(repeating: "x", count: 65), "a b", "../etc", "a/b", "a.b", "é", "name?", "%2e"])
  func otherNamesAreRejectedWithAMessageNamingThem(text: String) {
    let error = #expect(throws: DrawingNameError.self) { try DrawingName(text) }
    #expect(error?.description == "Invalid drawing name '\(text)': use 1 to 64 letters, digits, '_' or '-'")
  }
}
