import ArgumentParser
struct ServeCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(commandName: "serve")
}
