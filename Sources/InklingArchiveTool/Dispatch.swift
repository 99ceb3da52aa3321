// From a parsed command line to the command that runs it: the command reads and checks its
// values, then runs with the global options' context. Archive errors are printed here, once,
// with the sentence and exit status of ErrorMessages.swift; usage errors go back to
// CommandLineProgram, which prints them with the command's usage line.
//
// Under --json (or a command's --ndjson, read line by line) a script reads the problem where it
// reads answers, in the shape the server's API gives it: `{"error": sentence, "status": exit status}`, with the facts a case has
// (`suggestions` for a draft not found; `query`, `column` and `message` for a search that
// does not parse). The sentence still goes to standard error, for the person.

import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

enum Dispatch {
  static func run(_ path: [String], _ parsed: ParsedArguments) throws -> Int32 {
    // The parser only produces paths of commands in the registry.
    guard let name = path.first, let command = Commands.named(name) else {
      preconditionFailure("no command '\(path.joined(separator: " "))' in the registry")
    }
    let context = try CommandContext(parsed)
    let json = context.json || command.spec.options.contains { $0.long == "ndjson" } && parsed.isSet("ndjson")
    do {
      return try command.init(parsed).run(context)
    } catch let error as ArchiveError {
      if error.isUsageError {
        if json { context.printJSON(errorJSON(error.sentence, ExitStatus.usage, error)) }
        throw parsed.usageError(error.sentence)
      }
      let sentence = error.sentence(folderAdvice: command.folderAdvice)
      if json { context.printJSON(errorJSON(sentence, error.exitStatus, error)) }
      context.printError("Error: \(sentence)")
      return error.exitStatus
    } catch let error as UsageError where json {
      context.printJSON(errorJSON(error.message, ExitStatus.usage))
      throw error
    } catch let error as any ExitStatusError where json {
      context.printJSON(errorJSON(error.description, error.exitStatus))
      throw error
    }
  }

  /// The one shape of an error under --json (the server's `ErrorView` writes the same).
  static func errorJSON(_ sentence: String, _ status: Int32, _ error: ArchiveError? = nil) -> JSONValue {
    var members: [JSONValue.Member] = [.init("error", .string(sentence)), .init("status", .int(Int(status)))]
    switch error {
    case .noSuchDraft(_, let suggestions)? where !suggestions.isEmpty:
      members.append(.init("suggestions", .array(suggestions.map { .string($0) })))
    case .searchSyntax(let syntax)?:
      members += [
        .init("query", .string(syntax.query)), .init("column", .int(syntax.column)),
        .init("message", .string(syntax.message)),
      ]
    default: break
    }
    return .object(members)
  }
}
