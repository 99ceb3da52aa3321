// Declarations: each option, flag and argument declared once, with its type, its default and
// its help, as swift-argument-parser's property wrappers do, without reflection.
//
//     @Parsed(Option("limit", valueName: "N", .count, help: "At most N drafts.")) var limit: Int?
//     @Parsed(Option("level", valueName: "N", .integer(in: 1...19), default: 19, help: "…")) var level: Int
//     @Parsed(Flag("force", short: "f", help: "Replace files that already exist.")) var force: Bool
//     @Parsed(Argument("DRAFT", .text, help: "The draft's name.", completion: .drafts)) var draft: String
//
// A declaration is a plain value; `@Parsed` (Parsed.swift) makes it a command's property, whose
// type is the declaration's: `T?` without a default, `T` with one (or when required), `[T]`
// when it repeats. One that several commands take is a `static let`, given to each command's
// `@Parsed`. The spec each one makes (`.spec`) is what the command's CommandSpec lists, so
// parsing, help, usage lines, the man page and completions all come from these declarations;
// the default printed in help is the typed default, formatted by its kind.

/// How a value is read from its text, described and completed.
package struct ValueKind<Value: Sendable>: Sendable {
  /// What a valid value looks like, for errors: "an integer", "1 to 19".
  package var expected: String
  package var parse: @Sendable (String) -> Value?
  /// The text of a value, for defaults in help.
  package var format: @Sendable (Value) -> String
  package var completion: Completion

  /// `format` must be given for values that have a better text than `"\(value)"`, and should
  /// be for every common type: the generic interpolation finds the value's description through
  /// dynamic casts, whose first use in a process scans every protocol conformance record, and
  /// every command's declarations are made (their defaults formatted) at each start.
  package init(
    expected: String, completion: Completion = .none, format: @escaping @Sendable (Value) -> String = { "\($0)" },
    parse: @escaping @Sendable (String) -> Value?
  ) {
    self.expected = expected
    self.parse = parse
    self.format = format
    self.completion = completion
  }

  /// Every text parsed, in order; nil when any one is not a valid value.
  func parseAll(_ texts: [String]) -> [Value]? {
    var values: [Value] = []
    for text in texts {
      guard let value = parse(text) else { return nil }
      values.append(value)
    }
    return values
  }

  /// The same values, with one more condition (`.integer.where("1 or more") { $0 >= 1 }`).
  package func `where`(_ expected: String, _ condition: @escaping @Sendable (Value) -> Bool) -> ValueKind {
    let parse = self.parse
    return ValueKind(expected: expected, completion: completion, format: format) { text in
      parse(text).flatMap { condition($0) ? $0 : nil }
    }
  }
}

extension ValueKind where Value == String {
  /// Any text.
  package static var text: ValueKind { ValueKind(expected: "a text", format: { $0 }, parse: { $0 }) }
  /// A path to a file; completed with file names.
  package static var file: ValueKind {
    ValueKind(expected: "a file name", completion: .files, format: { $0 }, parse: { $0.isEmpty ? nil : $0 })
  }
  /// A path to a folder; completed with folder names.
  package static var folder: ValueKind {
    ValueKind(expected: "a folder", completion: .folders, format: { $0 }, parse: { $0.isEmpty ? nil : $0 })
  }
}

extension ValueKind where Value == Int {
  /// A whole number.
  package static var integer: ValueKind {
    ValueKind(expected: "an integer", format: { String($0) }, parse: { Int($0) })
  }
  /// A whole number in `range`.
  package static func integer(in range: ClosedRange<Int>) -> ValueKind {
    integer.where("an integer from \(range.lowerBound) to \(range.upperBound)") { range.contains($0) }
  }
  /// A whole number, 0 or more.
  package static var count: ValueKind { integer.where("a whole number, 0 or more") { $0 >= 0 } }
  /// A whole number, 1 or more.
  package static var positive: ValueKind { integer.where("a whole number, 1 or more") { $0 >= 1 } }
  /// One of a few numbers.
  package static func oneOf(_ values: [Int]) -> ValueKind {
    let names = values.map(String.init)
    let list = listing(names)
    var kind = integer.where(list) { values.contains($0) }
    kind.completion = .choices(names)
    return kind
  }
}

extension ValueKind where Value == Double {
  /// A finite number above `lower` and at most `upper`.
  package static func number(above lower: Double, atMost upper: Double) -> ValueKind {
    ValueKind(expected: "a number above \(Self.text(lower)) and at most \(Self.text(upper))", format: text) { value in
      guard let number = DecimalNumber.parse(value), number > lower, number <= upper else { return nil }
      return number
    }
  }

  private static func text(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
  }
}

extension ValueKind {
  /// One of an enumeration's raw values: `.choice(DraftSort.allCases)`.
  ///
  /// The cases, not the type: read from a `CaseIterable` type in this unspecialised code,
  /// `allCases` makes the runtime look its associated type up by name, which scans every
  /// conformance record the first time, at every start (each command's declarations are
  /// made then).
  package static func choice(_ values: [Value]) -> ValueKind
  where Value: RawRepresentable, Value.RawValue == String {
    var names: [String] = []
    for value in values { names.append(value.rawValue) }
    return ValueKind(
      expected: listing(names), completion: .choices(names), format: { $0.rawValue },
      parse: { Value(rawValue: $0) })
  }
}

/// `["a", "b", "c"]` → "a, b or c". Appended by hand: joined(separator:) is the stdlib's
/// unspecialised generic code, whose first call in a process scans every conformance record.
private func listing(_ names: [String]) -> String {
  var text = ""
  for (index, name) in names.enumerated() {
    if index > 0 { text += index == names.count - 1 ? " or " : ", " }
    text += name
  }
  return text
}

/// What a shell may offer when completing a value.
package enum Completion: Sendable, Equatable {
  case none
  case files
  case folders
  case choices([String])
  /// The values the program prints when run with these arguments followed by `--` and the
  /// word typed so far (its quotes taken away), each ended by a NUL byte: the program finds
  /// what starts with it, so that the shell is never handed every value.
  case prefixed([String])
  /// The values the program itself prints when run with these arguments, each ended by a
  /// NUL byte (draft names, which may hold any character but NUL). The scripts treat them as
  /// data: nothing in them is ever expanded or run.
  case command([String])
}

// MARK: - Options

/// An option with a value, declared once: `--limit N`.
///
/// `Value` is what the command reads: `T?` for an option without a default, `T` with one,
/// `[T]` for a repeatable option.
package struct Option<Value: Sendable>: Sendable {
  package let spec: OptionSpec
  let expected: String
  let convert: @Sendable ([String]) -> Value?
  /// The value when the option is absent; nil only for required options, which the parser
  /// makes sure are present.
  let absent: Value?

  /// An option without a default: absent reads as nil.
  package init<T: Sendable>(
    _ long: String, short: Character? = nil, valueName: String, _ kind: ValueKind<T>, help: String
  ) where Value == T? {
    spec = OptionSpec(
      long: long, short: short, valueName: valueName, help: help, kind: .value, completion: kind.completion)
    expected = kind.expected
    convert = { texts in texts.last.flatMap(kind.parse).map { .some($0) } }
    absent = .some(nil)
  }

  /// An option with a default, shown in help.
  package init(
    _ long: String, short: Character? = nil, valueName: String, _ kind: ValueKind<Value>, default value: Value,
    help: String
  ) {
    spec = OptionSpec(
      long: long, short: short, valueName: valueName, help: help, kind: .value, defaultValue: kind.format(value),
      completion: kind.completion)
    expected = kind.expected
    convert = { texts in texts.last.flatMap(kind.parse) }
    absent = value
  }

  /// An option the command cannot run without.
  package init(
    _ long: String, short: Character? = nil, valueName: String, _ kind: ValueKind<Value>, required: Void,
    help: String
  ) {
    spec = OptionSpec(
      long: long, short: short, valueName: valueName, help: help, kind: .value, isRequired: true,
      completion: kind.completion)
    expected = kind.expected
    convert = { texts in texts.last.flatMap(kind.parse) }
    absent = nil
  }

  /// A repeatable option: every value, in order; none reads as empty.
  package init<T: Sendable>(
    _ long: String, short: Character? = nil, valueName: String, _ kind: ValueKind<T>, repeating: Void,
    help: String
  ) where Value == [T] {
    spec = OptionSpec(
      long: long, short: short, valueName: valueName, help: help, kind: .repeatable, completion: kind.completion)
    expected = kind.expected
    convert = { texts in kind.parseAll(texts) }
    absent = []
  }
}

/// A flag, present or not: `--force`.
package struct Flag: Sendable {
  package let spec: OptionSpec

  package init(_ long: String, short: Character? = nil, help: String) {
    spec = OptionSpec(long: long, short: short, help: help, kind: .flag)
  }
}

// MARK: - Arguments

/// A positional argument, declared once: `DRAFT`, `[DEST]`, `PATH...`.
///
/// `Value` is `T` when required, `T?` when optional, `[T]` when it repeats.
package struct Argument<Value: Sendable>: Sendable {
  package let spec: ArgumentSpec
  let expected: String
  let convert: @Sendable ([String]) -> Value?

  /// A required argument.
  package init(_ name: String, _ kind: ValueKind<Value>, help: String, completion: Completion? = nil) {
    spec = ArgumentSpec(name, help: help, arity: .required, completion: completion ?? kind.completion)
    expected = kind.expected
    convert = { texts in texts.first.flatMap(kind.parse) }
  }

  /// An optional argument.
  package init<T: Sendable>(
    _ name: String, _ kind: ValueKind<T>, optional: Void, help: String, completion: Completion? = nil
  ) where Value == T? {
    spec = ArgumentSpec(name, help: help, arity: .optional, completion: completion ?? kind.completion)
    expected = kind.expected
    convert = { texts in
      guard let text = texts.first else { return .some(nil) }
      return kind.parse(text).map { .some($0) }
    }
  }

  /// An argument that takes the rest of the words: at least one unless `allowsNone`.
  package init<T: Sendable>(
    _ name: String, _ kind: ValueKind<T>, repeating: Void, allowsNone: Bool = false, help: String,
    completion: Completion? = nil
  ) where Value == [T] {
    spec = ArgumentSpec(
      name, help: help, arity: allowsNone ? .zeroOrMore : .oneOrMore, completion: completion ?? kind.completion)
    expected = kind.expected
    convert = { texts in kind.parseAll(texts) }
  }
}

// MARK: - Reading

extension ParsedArguments {
  /// The option's value: as given, else its default (see `Option`).
  ///
  /// - Throws: `UsageError` "Invalid value 'ten' for '--limit N': expected an integer."
  package func value<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
    let texts = givenValues(option.spec.long)
    guard !texts.isEmpty else {
      // Required options are checked by the parser's validation stage.
      guard let absent = option.absent else { preconditionFailure("required '\(option.spec.dashedLong)' absent") }
      return absent
    }
    guard let value = option.convert(texts) else {
      let bad = texts.first { option.convert([$0]) == nil } ?? texts[texts.count - 1]
      throw .invalidValue(bad, for: option.spec, expected: option.expected, at: commandPath)
    }
    return value
  }

  /// Whether the flag was given.
  package func value(_ flag: Flag) -> Bool {
    isSet(flag.spec.long)
  }

  /// Whether the option was given on the command line (its default does not count).
  package func isGiven<Value>(_ option: Option<Value>) -> Bool {
    isSet(option.spec.long)
  }

  /// The argument's value (see `Argument`).
  ///
  /// - Throws: `UsageError` "Invalid value 'x' for 'A': expected an integer."
  package func value<Value>(_ argument: Argument<Value>) throws(UsageError) -> Value {
    let texts = arguments(argument.spec.name)
    guard let value = argument.convert(texts) else {
      let bad = texts.first { argument.convert([$0]) == nil } ?? ""
      throw UsageError(
        "Invalid value '\(bad)' for '\(argument.spec.name)': expected \(argument.expected).", commandPath: commandPath)
    }
    return value
  }
}

extension ValueKind where Value == Int64 {
  /// A size in bytes: `500000`, or with a binary suffix `K`, `M`, `G` (`256M`); shown the
  /// same way, with the largest suffix that divides it.
  package static var size: ValueKind {
    ValueKind(expected: "a size such as 256M", format: formatSize) { text in
      let multipliers: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
      let upper = text.uppercased()
      if let last = upper.last, let multiplier = multipliers[last], let value = Int64(upper.dropLast()), value > 0 {
        let (product, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : product
      }
      return Int64(text).flatMap { $0 > 0 ? $0 : nil }
    }
  }

  private static func formatSize(_ value: Int64) -> String {
    for (suffix, unit) in [("G", Int64(1) << 30), ("M", 1 << 20), ("K", 1 << 10)] where value % unit == 0 {
      return "\(value / unit)\(suffix)"
    }
    return "\(value)"
  }
}

extension Array where Element == [OptionSpec] {
  /// Groups of options as CommandSpec's `exclusive` takes them.
  package var names: [[String]] { map { $0.map(\.long) } }
}
