import Foundation
import PackagePlugin

/// Turns every file under the package's `Web/`, and the API's contract
/// `docs/openapi.yaml`, into one generated Swift source of the target it is
/// applied to (`TouchTrackerWebAssets`).
///
/// The files are listed here, at planning time, as the command's inputs: a
/// file added, changed or removed (a rebuilt `touchtracker.wasm`, a new ES
/// module) runs the generator again; nothing else does. Dotfiles are left
/// out, as the server would refuse to serve them anyway.
@main
struct EmbedWebAssets: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
    let web = context.package.directoryURL.appendingPathComponent("Web")
    let contract = context.package.directoryURL.appendingPathComponent("docs/openapi.yaml")
    let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedWebAssets+Files.swift")
    return [
      .buildCommand(
        displayName: "Embedding the web assets of \(web.path)",
        executable: try context.tool(named: "embed-web-assets").url,
        arguments: [web.path, output.path, contract.path],
        inputFiles: Self.files(under: web) + [contract],
        outputFiles: [output]
      )
    ]
  }

  /// Regular files under `directory`, recursively, without dotfiles.
  static func files(under directory: URL) -> [URL] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { return [] }
    return enumerator.compactMap { $0 as? URL }
      .filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
      .sorted { $0.path < $1.path }
  }
}
