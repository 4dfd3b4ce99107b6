import ArgumentParser
import TouchTrackerServer

/// `touchtracker`: serve the browser app, replay touch traces, render documents.
@main
struct TouchTrackerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "touchtracker",
    abstract: "A multi-touch line-drawing app and its UIKit-style touch event engine.",
    version: TouchTrackerVersion.current,
    subcommands: [ServeCommand.self, ReplayCommand.self, RenderCommand.self, BackupCommand.self, RestoreCommand.self]
  )
}
