// inkling-archive: parse the command line, run one command, exit with its status.

import InklingCommandLine
import InklingFormats
import InklingPresentation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@main
enum EntryPoint {
  static func main() {
    // An error under --json or --ndjson is JSON (Dispatch), a command line that does not
    // parse too, and so is --version under --json.
    let program = CommandLineProgram(
      root: RootCommand.spec,
      parseErrorJSON: { arguments, message in
        guard asksForJSON(arguments, ndjsonToo: true) else { return nil }
        return JSONWriter().string(Dispatch.errorJSON(message, ExitStatus.usage)) + "\n"
      },
      versionJSON: { arguments, verbose in
        guard asksForJSON(arguments, ndjsonToo: false) else { return nil }
        var members: [JSONValue.Member] = [
          .init("name", .string(RootCommand.spec.name)), .init("version", .string(RootCommand.version)),
        ]
        if verbose { members.append(.init("libraries", .array(RootCommand.libraries.map(\.json)))) }
        return JSONWriter().string(.object(members)) + "\n"
      })
    let status = program.run(Array(CommandLine.arguments.dropFirst()), dispatch: Dispatch.run)
    exit(status)
  }

  /// Whether the options before `--` ask for JSON output: `--json`, or with `ndjsonToo` a
  /// command's `--ndjson`, whose lines a script reads as it reads `--json`.
  private static func asksForJSON(_ arguments: [String], ndjsonToo: Bool) -> Bool {
    let options = arguments.prefix { $0 != "--" }
    return options.contains("--\(RootCommand.json.spec.long)") || ndjsonToo && options.contains("--ndjson")
  }
}
