// ParsedArguments: the values a command reads once parsing succeeded.
//
// Names are looked up the way the parser resolved them: the command's own options first,
// then its ancestors' (global) ones. Asking for a name the spec does not declare is a bug in
// the command, not a user mistake, so it stops the program with the name in the message;
// a value that does not convert (`--limit ten`) is the user's mistake and throws UsageError.
//
//     let archive = parsed.string("--archive")          // String?, default applied
//     let limit = try parsed.int("--limit") ?? 50       // throws UsageError on "ten"
//     let json = parsed.flag("--json")
//     let names = parsed.strings("--name")              // every --name, in order
//     let draft = parsed.argument("DRAFT")!             // required, so present

/// The parsed command line for one command.
package struct ParsedArguments: Sendable {
  /// One command's options and the values given for them.
  struct Scope: Sendable {
    var options: [OptionSpec]
    /// Long name → values in the order given; flags record "" per occurrence.
    var values: [String: [String]]
  }

  /// Names below the root of the command to run: `["restore"]`.
  package let commandPath: [String]
  let scopes: [Scope]
  /// Every positional word, in order.
  package let positionals: [String]
  let arguments: [String: [String]]
  let argumentSpecs: [ArgumentSpec]

  // MARK: - Options

  /// Whether the flag (or any option) `name` was given: `parsed.flag("--json")`.
  package func flag(_ name: String) -> Bool {
    isSet(name)
  }

  /// Whether the option was given on the command line (defaults do not count).
  package func isSet(_ name: String) -> Bool {
    let (scope, option) = lookUp(name)
    return scope.values[option.long] != nil
  }

  /// The value of a valued option — the last one given, else its default, else nil.
  package func string(_ name: String) -> String? {
    let (scope, option) = lookUp(name)
    precondition(option.kind != .flag, "'\(option.dashedLong)' is a flag; read it with flag(_:)")
    return scope.values[option.long]?.last ?? option.defaultValue
  }

  /// Every value given for the option, in order; the default alone when none was given.
  package func strings(_ name: String) -> [String] {
    let (scope, option) = lookUp(name)
    precondition(option.kind != .flag, "'\(option.dashedLong)' is a flag; read it with flag(_:)")
    return scope.values[option.long] ?? option.defaultValue.map { [$0] } ?? []
  }

  /// The option's value as an integer: `try parsed.int("--limit")`.
  /// - Throws: `UsageError` "Invalid value 'ten' for '--limit N': expected an integer."
  package func int(_ name: String) throws(UsageError) -> Int? {
    try value(name, expected: "an integer") { Int($0) }
  }

  /// The option's value as a number: `try parsed.double("--scale")`.
  /// - Throws: `UsageError` naming the option when the value is not a decimal number.
  package func double(_ name: String) throws(UsageError) -> Double? {
    try value(name, expected: "a number") { DecimalNumber.parse($0) }
  }

  /// The option's value converted by `transform`; nil when absent with no default.
  ///
  ///     let since = try parsed.value("--since", expected: "a date", DateInput.parse)
  ///
  /// - Throws: `UsageError` "Invalid value 'X' for '--since DATE': expected a date."
  package func value<T>(
    _ name: String, expected: String, _ transform: (String) -> T?
  ) throws(UsageError) -> T? {
    guard let text = string(name) else { return nil }
    guard let converted = transform(text) else {
      throw .invalidValue(text, for: lookUp(name).1, expected: expected, at: commandPath)
    }
    return converted
  }

  /// Every value of a repeatable option converted by `transform`.
  /// - Throws: `UsageError` naming the first value that does not convert.
  package func values<T>(
    _ name: String, expected: String, _ transform: (String) -> T?
  ) throws(UsageError) -> [T] {
    var result: [T] = []
    for text in strings(name) {
      guard let converted = transform(text) else {
        throw .invalidValue(text, for: lookUp(name).1, expected: expected, at: commandPath)
      }
      result.append(converted)
    }
    return result
  }

  /// The values given for the option called `long` (no dashes), defaults not applied.
  func givenValues(_ long: String) -> [String] {
    lookUp(long).0.values[OptionSpec.bareName(long)] ?? []
  }

  // MARK: - Positional arguments

  /// The positional word at `index`, or nil: `parsed.positional(0)`.
  package func positional(_ index: Int) -> String? {
    positionals.indices.contains(index) ? positionals[index] : nil
  }

  /// The value of the declared argument `name` (`"DRAFT"`), or nil when optional and absent.
  package func argument(_ name: String) -> String? {
    arguments(name).first
  }

  /// All values of the declared argument `name`, for repeating ones (`"PATH"`).
  package func arguments(_ name: String) -> [String] {
    precondition(
      argumentSpecs.contains { $0.name == name },
      "argument '\(name)' is not declared by '\(commandPath.joined(separator: " "))'")
    return arguments[name] ?? []
  }

  // MARK: - Errors

  /// A usage error about this command, for checks the spec cannot express.
  package func usageError(_ message: String) -> UsageError {
    UsageError(message, commandPath: commandPath)
  }

  // MARK: - Lookup

  /// The scope and spec of an option by `--long`, `long` or `-s`.
  private func lookUp(_ name: String) -> (Scope, OptionSpec) {
    let isShort = name.hasPrefix("-") && !name.hasPrefix("--") && name.count == 2
    let bare = OptionSpec.bareName(name)
    for scope in scopes {
      if let option = scope.options.first(where: {
        isShort ? $0.short == bare.first : $0.long == bare
      }) {
        return (scope, option)
      }
    }
    // A typo in our own code: the spec is the single source of names.
    preconditionFailure(
      "option '\(name)' is not declared by '\(commandPath.joined(separator: " "))' or its parents")
  }
}
