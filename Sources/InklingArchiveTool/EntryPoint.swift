// inkling-archive: parse the command line, run one command, exit with its status.

import InklingCommandLine
import InklingPresentation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@main
enum EntryPoint {
  static func main() {
    // An error under --json is JSON (Dispatch), a command line that does not parse too.
    let program = CommandLineProgram(
      root: RootCommand.spec,
      parseErrorJSON: { arguments, message in
        guard arguments.prefix(while: { $0 != "--" }).contains("--\(RootCommand.json.spec.long)") else { return nil }
        return JSONWriter().string(Dispatch.errorJSON(message, ExitStatus.usage)) + "\n"
      })
    let status = program.run(Array(CommandLine.arguments.dropFirst()), dispatch: Dispatch.run)
    exit(status)
  }
}
