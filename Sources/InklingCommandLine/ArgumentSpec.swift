// ArgumentSpec: one positional argument of a command.

/// A positional argument: `DRAFT`, `[DRAFT]`, `PATH...`.
package struct ArgumentSpec: Sendable, Equatable {
  /// How many values an argument takes.
  package enum Arity: Sendable, Equatable {
    case required
    case optional
    /// One or more; only the last argument may repeat.
    case oneOrMore
    /// Zero or more; only the last argument may repeat.
    case zeroOrMore

    var isRequired: Bool { self == .required || self == .oneOrMore }
    var repeats: Bool { self == .oneOrMore || self == .zeroOrMore }
  }

  /// The placeholder in usage and help, conventionally upper case: `DRAFT`.
  package var name: String
  package var help: String
  package var arity: Arity
  /// What a shell may offer for it.
  package var completion: Completion

  package init(_ name: String, help: String, arity: Arity = .required, completion: Completion = .none) {
    self.name = name
    self.help = help
    self.arity = arity
    self.completion = completion
  }

  package static func required(_ name: String, help: String) -> ArgumentSpec {
    ArgumentSpec(name, help: help, arity: .required)
  }
  package static func optional(_ name: String, help: String) -> ArgumentSpec {
    ArgumentSpec(name, help: help, arity: .optional)
  }
  package static func oneOrMore(_ name: String, help: String) -> ArgumentSpec {
    ArgumentSpec(name, help: help, arity: .oneOrMore)
  }
  package static func zeroOrMore(_ name: String, help: String) -> ArgumentSpec {
    ArgumentSpec(name, help: help, arity: .zeroOrMore)
  }

  /// `DRAFT`, `[DRAFT]`, `PATH...`, `[PATH...]` as in usage lines.
  package var synopsis: String {
    switch arity {
    case .required: name
    case .optional: "[\(name)]"
    case .oneOrMore: "\(name)..."
    case .zeroOrMore: "[\(name)...]"
    }
  }
}
