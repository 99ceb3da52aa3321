// UsageError: the user typed something the command tree does not accept.
//
// Every message is one sentence naming the offending word as typed. The messages are built
// here, in one place, so tests and documentation can pin them down exactly.

/// A mistake on the command line; the program prints it with the usage line and exits 2.
package struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
  /// One sentence, e.g. "Unknown option '--verison'. Did you mean '--version'?"
  package var message: String
  /// The command the mistake is about, as names below the root (`["restore"]`); nil means
  /// "the command being run", filled in by `CommandLineProgram`.
  package var commandPath: [String]?

  package init(_ message: String, commandPath: [String]? = nil) {
    self.message = message
    self.commandPath = commandPath
  }

  package var description: String { message }

  // MARK: - The parser's messages

  static func unknownOption(_ typed: String, suggestion: String?, at path: [String]) -> UsageError {
    UsageError("Unknown option '\(typed)'.\(didYouMean(suggestion))", commandPath: path)
  }

  static func unknownCommand(_ typed: String, suggestion: String?, at path: [String]) -> UsageError {
    UsageError("Unknown command '\(typed)'.\(didYouMean(suggestion))", commandPath: path)
  }

  static func verboseWithoutVersion(root: String) -> UsageError {
    UsageError("Option '--verbose' goes with '--version': \(root) --version --verbose.", commandPath: [])
  }

  static func missingCommand(at path: [String]) -> UsageError {
    UsageError("Missing command.", commandPath: path)
  }

  static func missingValue(for option: OptionSpec, at path: [String]) -> UsageError {
    UsageError("Missing value for '\(option.synopsis)'.", commandPath: path)
  }

  static func flagWithValue(_ option: OptionSpec, at path: [String]) -> UsageError {
    UsageError("Option '\(option.dashedLong)' does not take a value.", commandPath: path)
  }

  static func missingArgument(_ argument: ArgumentSpec, at path: [String]) -> UsageError {
    UsageError("Missing expected argument '\(argument.name)'.", commandPath: path)
  }

  static func missingOption(_ option: OptionSpec, at path: [String]) -> UsageError {
    UsageError("Missing expected option '\(option.synopsis)'.", commandPath: path)
  }

  static func unexpectedArgument(_ word: String, at path: [String]) -> UsageError {
    UsageError("Unexpected argument '\(word)'.", commandPath: path)
  }

  static func exclusive(_ first: String, _ second: String, at path: [String]) -> UsageError {
    UsageError("Options '--\(first)' and '--\(second)' cannot be used together.", commandPath: path)
  }

  static func invalidValue(
    _ value: String, for option: OptionSpec, expected: String, at path: [String]
  ) -> UsageError {
    UsageError(
      "Invalid value '\(value)' for '\(option.synopsis)': expected \(expected).", commandPath: path)
  }

  private static func didYouMean(_ suggestion: String?) -> String {
    suggestion.map { " Did you mean '\($0)'?" } ?? ""
  }
}

// MARK: - Rendering

extension UsageError {
  /// The three lines printed on stderr:
  ///
  ///     Error: Unknown option '--verison'. Did you mean '--version'?
  ///     Usage: inkling-archive restore DRAFT [--version N | --at DATE]
  ///       See 'inkling-archive restore --help'.
  ///
  /// `path` is used when the error does not name its command itself.
  package func rendered(root: CommandSpec, path fallbackPath: [String] = []) -> String {
    let path = commandPath ?? fallbackPath
    let chain = root.chain(to: path) ?? [root]
    let names = chain.map(\.name).joined(separator: " ")
    return """
      Error: \(message)
      Usage: \(UsageLine.line(for: chain))
        See '\(names) --help'.

      """
  }
}
