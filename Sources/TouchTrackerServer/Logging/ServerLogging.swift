import Foundation
import Logging

/// How `touchtracker serve` writes its log on standard error.
public enum LogFormat: String, CaseIterable, Sendable {
  /// Lines for people: time, level, label, message and metadata.
  case text
  /// One JSON object a line, for a log collector (`JSONLogHandler`).
  case json
}

/// Sends every logger of the process to standard error in `format`. Call
/// once, before the first logger is made (swift-log allows one bootstrap).
public func bootstrapLogging(_ format: LogFormat) {
  LoggingSystem.bootstrap { label in
    switch format {
    case .text: StreamLogHandler.standardError(label: label)
    case .json: JSONLogHandler(label: label, stream: JSONLogHandler.standardError)
    }
  }
}

/// The log's level by its name (`trace`, `debug`, `info`, `notice`,
/// `warning`, `error`, `critical`); nil for any other.
public func logLevel(named name: String) -> Logger.Level? {
  Logger.Level(rawValue: name.lowercased())
}

/// One JSON object a line: `time` (ISO 8601, UTC, milliseconds), `level`,
/// `label`, `message`, `source`, and the metadata's keys beside them
/// (`request_id` names the request a line belongs to).
public struct JSONLogHandler: LogHandler {
  public var metadata: Logger.Metadata = [:]
  public var logLevel: Logger.Level = .info
  let label: String
  let write: @Sendable (Data) -> Void

  /// Writes each line to standard error whole, in one call.
  public static let standardError: @Sendable (Data) -> Void = { FileHandle.standardError.write($0) }

  public init(label: String, stream: @escaping @Sendable (Data) -> Void) {
    self.label = label
    self.write = stream
  }

  public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  public func log(
    level: Logger.Level, message: Logger.Message, metadata explicit: Logger.Metadata?, source: String,
    file: String, function: String, line: UInt
  ) {
    var object: [String: Any] = [:]
    for (key, value) in metadata.merging(explicit ?? [:], uniquingKeysWith: { $1 }) {
      object[Self.key(key)] = Self.json(value)
    }
    object["time"] = Self.timestamp(Date())
    object["level"] = level.rawValue
    object["label"] = label
    object["message"] = message.description
    object["source"] = source
    guard
      var data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { return }
    data.append(0x0A)
    write(data)
  }

  /// Hummingbird's `hb.request.id` is the line's `request_id`.
  private static func key(_ key: String) -> String { key == "hb.request.id" ? "request_id" : key }

  private static func json(_ value: Logger.Metadata.Value) -> Any {
    switch value {
    case .string(let string): string
    case .stringConvertible(let convertible): convertible.description
    case .array(let values): values.map(json)
    case .dictionary(let values): values.mapValues(json)
    }
  }

  private static func timestamp(_ date: Date) -> String {
    date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
  }
}
