import ArgumentParser
import Foundation
import TouchTrackerStore

/// `touchtracker backup --database SRC OUT.sqlite`: every drawing copied
/// into a new SQLite file, while the server runs.
struct BackupCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "backup",
    abstract: "Copy every drawing into a new SQLite file, while the server runs.",
    discussion: """
      Each drawing is copied as it is when it is read, with its share links; everything saved before \
      the backup began is in it. The file is a TouchTracker database of its own: serve it, or load it \
      into an empty database of either kind with `touchtracker restore`.
      """
  )

  @Option(
    help: ArgumentHelp(
      "The drawings to copy: a SQLite file, or a PostgreSQL database (postgres://USER@HOST:PORT/DATABASE).",
      valueName: "path-or-url"))
  var database = "touchtracker.sqlite"

  @Argument(help: ArgumentHelp("The SQLite file to write; it must not exist.", valueName: "out"))
  var output: String

  func run() async throws {
    guard !FileManager.default.fileExists(atPath: output) else {
      throw CLIError("\(output) already exists: a backup goes into a new file")
    }
    if !PostgresURL.isPostgres(database), !FileManager.default.fileExists(atPath: database) {
      throw CLIError("No database at \(database)")
    }
    let copied = try await DrawingCopy.run(from: database, to: output)
    print("Backed up \(copied.drawings) drawing\(copied.drawings == 1 ? "" : "s") to \(output)")
  }
}

/// `touchtracker restore BACKUP.sqlite --database DEST`: a backup loaded into
/// an empty database of either kind.
struct RestoreCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "restore",
    abstract: "Load a backup into an empty database (SQLite or PostgreSQL).",
    discussion: """
      Every drawing comes back at its revision, with its share links, so pages and links people hold \
      go on working. The database must hold no drawing yet; start the server on it afterwards.
      """
  )

  @Argument(help: ArgumentHelp("The backup (a SQLite file `touchtracker backup` wrote).", valueName: "backup"))
  var backup: String

  @Option(
    help: ArgumentHelp(
      "The empty database to load it into: a SQLite file (created if missing), or a PostgreSQL database.",
      valueName: "path-or-url"))
  var database = "touchtracker.sqlite"

  func run() async throws {
    guard FileManager.default.fileExists(atPath: backup) else { throw CLIError("No backup at \(backup)") }
    let copied = try await DrawingCopy.run(from: backup, to: database)
    print("Restored \(copied.drawings) drawing\(copied.drawings == 1 ? "" : "s") into \(database)")
  }
}

/// Opens both databases, copies, closes both, whatever happens.
enum DrawingCopy {
  static func run(from source: String, to destination: String) async throws -> DrawingBackup.Copied {
    let from = try await openDrawingStorage(source, compaction: .manual)
    do {
      let to = try await openDrawingStorage(destination, compaction: .manual)
      do {
        let copied = try await DrawingBackup.copy(from: from, to: to)
        await to.close()
        await from.close()
        return copied
      } catch {
        await to.close()
        throw error
      }
    } catch let error as DrawingBackupError {
      await from.close()
      throw CLIError(error.description)
    } catch {
      await from.close()
      throw error
    }
  }
}
