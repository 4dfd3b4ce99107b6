/// Writes compact JSON into a byte buffer; fast enough for 100,000-line documents.
public struct JSONWriter {
  public private(set) var bytes: [UInt8] = []

  public init() {}

  public var string: String { String(decoding: bytes, as: UTF8.self) }

  public mutating func write(_ value: JSONValue) {
    switch value {
    case .null: raw("null")
    case .bool(let flag): raw(flag ? "true" : "false")
    case .number(let number): write(number)
    case .string(let text): write(text)
    case .array(let elements):
      bytes.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(element)
      }
      bytes.append(UInt8(ascii: "]"))
    case .object(let members):
      bytes.append(UInt8(ascii: "{"))
      for (index, member) in members.enumerated() {
        if index > 0 { bytes.append(UInt8(ascii: ",")) }
        write(member.key)
        bytes.append(UInt8(ascii: ":"))
        write(member.value)
      }
      bytes.append(UInt8(ascii: "}"))
    }
  }

  public mutating func write(_ number: Double) {
    NumberText.append(number, to: &bytes)
  }

  public mutating func write(_ text: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): raw("\\\"")
      case UInt8(ascii: "\\"): raw("\\\\")
      case 0x0A: raw("\\n")
      case 0x0D: raw("\\r")
      case 0x09: raw("\\t")
      case 0x00..<0x20:
        raw("\\u00")
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(digits[Int(byte >> 4)])
        bytes.append(digits[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  /// Appends text that is already JSON.
  public mutating func raw(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends bytes that are already JSON.
  public mutating func raw(_ json: [UInt8]) {
    bytes.append(contentsOf: json)
  }
}
