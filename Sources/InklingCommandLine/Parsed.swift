// Parsed: a command's properties are its declarations, as swift-argument-parser's property
// wrappers are, without reflection.
//
//     struct ListCommand: Command {
//       @Parsed(Option("limit", valueName: "N", .count, help: "At most N drafts.")) var limit: Int?
//       @Parsed(Flag("force", short: "f", help: "Replace files that already exist.")) var force: Bool
//       @Parsed(Common.draft) var draft: String
//       let filters = DraftFilters()     // a group of @Parsed properties, read in its place
//     }
//
// A property wrapper's initial value runs each time the command is made, in the order the
// properties are written, and that is the one hook there is without reflection. So each
// `@Parsed` asks the reading in progress (`CommandReading.current`, a task-local) what to do:
// while the spec is made (`CommandSpec.declaring`) it appends its declaration to the spec's
// options or arguments, in the order help lists them; while a command line is read
// (`CommandReading.read`) it takes its typed value from the parse. A value that does not
// convert is a usage error kept by the reading and thrown once the command is made, the first
// one found, as a command reading its values one by one would have thrown it. Checks across
// options come after, in the command's `validate`, when every value is known.
//
// Invariants:
//   1. A `@Parsed` property is made only inside a reading: a command is made by
//      `CommandSpec.declaring` or `CommandReading.read`, never by a bare initialiser call.
//   2. The command made while describing is thrown away unread: its values are not there.
//   3. The declarations are made in a fixed order (no `@Parsed` behind a condition), so the
//      spec, help and the values read all come from the same list.

/// The value of a declared option, flag or argument, read from the command line.
@propertyWrapper
package struct Parsed<Value: Sendable>: Sendable {
  /// Nil while describing, or when the value did not convert (the reading then throws).
  private let value: Value?
  /// Whether the command line gave it: a default is not given (`$level.isGiven`).
  package let isGiven: Bool

  /// `$name`: the declaration's reading itself, for `isGiven`.
  package var projectedValue: Parsed<Value> { self }

  package var wrappedValue: Value {
    guard let value else {
      // Invariant 2: only a command made by `CommandReading.read` without an error is run.
      preconditionFailure("a @Parsed value read from a command made to describe it, or one that did not parse")
    }
    return value
  }

  /// An option with a value: `@Parsed(Option("limit", …)) var limit: Int?`.
  package init(_ option: Option<Value>) {
    (value, isGiven) = CommandReading.current().take(option.spec) { parsed throws(UsageError) in
      try parsed.value(option)
    }
  }

  /// A positional argument: `@Parsed(Common.draft) var draft: String`.
  package init(_ argument: Argument<Value>) {
    (value, isGiven) = CommandReading.current().take(argument.spec) { parsed throws(UsageError) in
      try parsed.value(argument)
    }
  }
}

extension Parsed where Value == Bool {
  /// A flag: `@Parsed(Flag("force", …)) var force: Bool`.
  package init(_ flag: Flag) {
    (value, isGiven) = CommandReading.current().take(flag.spec) { parsed in parsed.value(flag) }
  }
}

/// What the `@Parsed` properties of a command being made answer to: a spec being described,
/// or a command line being read.
///
/// A class, so that every property made in one initialiser adds to the same lists; used by the
/// one thread that makes the command, inside `withValue`, and by no other, hence unchecked.
package final class CommandReading: @unchecked Sendable {
  private enum Purpose {
    case describe
    case read(ParsedArguments)
  }

  /// The reading the properties being made answer to: task-local, so that commands made at
  /// once on several threads (tests run in parallel) each find their own.
  @TaskLocal private static var inProgress: CommandReading?

  private let purpose: Purpose
  private var options: [OptionSpec] = []
  private var arguments: [ArgumentSpec] = []
  /// The first value that did not convert.
  private var error: UsageError?

  private init(_ purpose: Purpose) {
    self.purpose = purpose
  }

  static func current() -> CommandReading {
    guard let reading = inProgress else {
      preconditionFailure("a @Parsed property made outside CommandSpec.declaring or CommandReading.read")
    }
    return reading
  }

  /// Makes the command with `make`, each `@Parsed` property read from `parsed`.
  ///
  /// - Throws: the first `UsageError` of a value that does not convert, in the order the
  ///   properties are declared.
  package static func read<Command>(_ parsed: ParsedArguments, _ make: () -> Command) throws(UsageError) -> Command {
    let reading = CommandReading(.read(parsed))
    let command = $inProgress.withValue(reading, operation: make)
    if let error = reading.error { throw error }
    return command
  }

  /// The options and arguments `make` declares, in order; the command it makes is dropped.
  static func describe<Command>(_ make: () -> Command) -> (options: [OptionSpec], arguments: [ArgumentSpec]) {
    let reading = CommandReading(.describe)
    _ = $inProgress.withValue(reading, operation: make)
    return (reading.options, reading.arguments)
  }

  /// An option's or flag's value and whether it was given; nil while describing (the spec
  /// is recorded instead).
  func take<Value>(
    _ spec: OptionSpec, _ read: (ParsedArguments) throws(UsageError) -> Value
  ) -> (Value?, isGiven: Bool) {
    switch purpose {
    case .describe:
      options.append(spec)
      return (nil, false)
    case .read(let parsed):
      return (value(parsed, read), parsed.isSet(spec.long))
    }
  }

  /// An argument's value and whether it was given; nil while describing (the spec is
  /// recorded instead).
  func take<Value>(
    _ spec: ArgumentSpec, _ read: (ParsedArguments) throws(UsageError) -> Value
  ) -> (Value?, isGiven: Bool) {
    switch purpose {
    case .describe:
      arguments.append(spec)
      return (nil, false)
    case .read(let parsed):
      return (value(parsed, read), !parsed.arguments(spec.name).isEmpty)
    }
  }

  private func value<Value>(_ parsed: ParsedArguments, _ read: (ParsedArguments) throws(UsageError) -> Value) -> Value?
  {
    do {
      return try read(parsed)
    } catch {
      if self.error == nil { self.error = error }
      return nil
    }
  }
}

extension CommandSpec {
  /// This spec with the options and arguments that the `@Parsed` properties of the command
  /// `make` makes declare, after any the spec already lists, in the order they are written:
  ///
  ///     static let spec = CommandSpec(name, abstract: "…").declaring { Self() }
  package func declaring<Command>(_ make: () -> Command) -> CommandSpec {
    let declared = CommandReading.describe(make)
    var spec = self
    spec.options += declared.options
    spec.arguments += declared.arguments
    return spec
  }
}
