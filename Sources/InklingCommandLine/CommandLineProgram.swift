// CommandLineProgram: the executable's entry point, minus the commands themselves.
//
// Parses, then does exactly one of:
//   help requested     → help on stdout, exit 0
//   --version          → "<name> <version>" on stdout (or the program's JSON of it), exit 0
//   usage error        → Error/Usage/See lines on stderr, exit 2
// Every message on stderr goes through VisibleText: it may echo what someone else typed.
//   a command to run   → dispatch(path, parsed); its status, or for a thrown error:
//                        UsageError → rendered as above, exit 2;
//                        ExitStatusError → "Error: …" on stderr, its status;
//                        anything else → "Error: …" on stderr, exit 1.

/// Runs a command line against a command tree.
///
///     @main struct Main {
///       static func main() {
///         let program = CommandLineProgram(root: RootCommand.spec)
///         exit(program.run(Array(CommandLine.arguments.dropFirst())) { path, parsed in
///           try Dispatch.run(path, parsed)
///         })
///       }
///     }
package struct CommandLineProgram: Sendable {
  package let root: CommandSpec
  private let output: @Sendable (String) -> Void
  private let errorOutput: @Sendable (String) -> Void
  private let parseErrorJSON: (@Sendable (_ arguments: [String], _ message: String) -> String?)?
  private let versionJSON: (@Sendable (_ arguments: [String], _ verbose: Bool) -> String?)?

  /// - Parameters:
  ///   - output, errorOutput: where stdout and stderr text go (tests capture them).
  ///   - parseErrorJSON: for a command line that does not parse, the error as the program's
  ///     JSON when the arguments ask for JSON output (nil otherwise), written to `output`
  ///     before the usual lines on `errorOutput`; the command says the errors of a command
  ///     line that parsed itself.
  ///   - versionJSON: for `--version` (`verbose`: with `--verbose`), the version as the
  ///     program's JSON when the arguments ask for JSON output (nil otherwise), written to
  ///     `output` instead of the text.
  package init(
    root: CommandSpec,
    output: @escaping @Sendable (String) -> Void = StandardStreams.writeOutput,
    errorOutput: @escaping @Sendable (String) -> Void = StandardStreams.writeError,
    parseErrorJSON: (@Sendable (_ arguments: [String], _ message: String) -> String?)? = nil,
    versionJSON: (@Sendable (_ arguments: [String], _ verbose: Bool) -> String?)? = nil
  ) {
    // A malformed tree is our bug; catch it in every debug run and test.
    assert(root.problems().isEmpty, "command tree: \(root.problems().joined(separator: "; "))")
    self.root = root
    self.output = output
    self.errorOutput = errorOutput
    self.parseErrorJSON = parseErrorJSON
    self.versionJSON = versionJSON
  }

  /// Parses `arguments` (program name excluded), runs the command, returns the exit status.
  package func run(
    _ arguments: [String], dispatch: ([String], ParsedArguments) throws -> Int32
  ) -> Int32 {
    let outcome: ParseOutcome
    do {
      outcome = try ArgumentParser(root: root).parse(arguments)
    } catch {
      if let line = parseErrorJSON?(arguments, error.message) { output(line) }
      errorOutput(VisibleText.of(error.rendered(root: root)))
      return ExitStatus.usage
    }
    switch outcome {
    case .help(let path):
      output(HelpGenerator.help(for: path, root: root))
      return ExitStatus.success
    case .version(let version, let details):
      if let line = versionJSON?(arguments, details != nil) {
        output(line)
        return ExitStatus.success
      }
      output("\(root.name) \(version)\n" + (details.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" } ?? ""))
      return ExitStatus.success
    case .run(let parsed):
      do {
        return try dispatch(parsed.commandPath, parsed)
      } catch let error as UsageError {
        errorOutput(VisibleText.of(error.rendered(root: root, path: parsed.commandPath)))
        return ExitStatus.usage
      } catch let error as any ExitStatusError {
        errorOutput(VisibleText.of("Error: \(error.description)\n"))
        return error.exitStatus
      } catch {
        errorOutput(VisibleText.of("Error: \(String(describing: error))\n"))
        return ExitStatus.someInputsRejected
      }
    }
  }
}
