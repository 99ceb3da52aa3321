// From a parsed command line to the command that runs it: the command reads and checks its
// values, then runs with the global options' context. Archive errors are printed here, once,
// with the sentence and exit status of ErrorMessages.swift; usage errors go back to
// CommandLineProgram, which prints them with the command's usage line.

import InklingArchive
import InklingCommandLine
import InklingPresentation

enum Dispatch {
  static func run(_ path: [String], _ parsed: ParsedArguments) throws -> Int32 {
    // The parser only produces paths of commands in the registry.
    guard let name = path.first, let command = Commands.named(name) else {
      preconditionFailure("no command '\(path.joined(separator: " "))' in the registry")
    }
    let context = try CommandContext(parsed)
    do {
      return try command.init(parsed).run(context)
    } catch let error as ArchiveError {
      if error.isUsageError {
        // Under --json a script reads the problem where it reads answers, as the server's API
        // gives it; the sentence still goes to standard error with the usage line.
        if context.json, case .searchSyntax(let syntax) = error {
          context.printJSON([
            "error": .string(error.sentence), "query": .string(syntax.query), "column": .int(syntax.column),
            "message": .string(syntax.message),
          ])
        }
        throw parsed.usageError(error.sentence)
      }
      context.printError("Error: \(error.sentence(folderAdvice: command.folderAdvice))")
      return error.exitStatus
    }
  }
}
