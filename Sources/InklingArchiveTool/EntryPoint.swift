// inkling-archive: parse the command line, run one command, exit with its status.

import InklingCommandLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@main
enum EntryPoint {
  static func main() {
    let program = CommandLineProgram(root: RootCommand.spec)
    let status = program.run(Array(CommandLine.arguments.dropFirst()), dispatch: Dispatch.run)
    exit(status)
  }
}
