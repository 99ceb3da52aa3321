// OptionSpec: one named option of a command — a flag, a single value, or a repeatable value.
//
// Names are stored without leading dashes ("archive", short "o"); every place that accepts a
// name from a caller (spec builders, ParsedArguments accessors, exclusive groups) also accepts
// the dashed spelling ("--archive", "-o"), so code reads like the command line it describes.

/// One named option of a command: `--json`, `--archive FILE`, `--name TEXT` (repeatable).
package struct OptionSpec: Sendable, Equatable {
  /// How an option takes values.
  package enum Kind: Sendable, Equatable {
    /// Present or absent: `--json`.
    case flag
    /// Takes one value; given twice, the last one wins: `--archive FILE`.
    case value
    /// Takes one value each time it appears; all are kept in order: `--name A --name B`.
    case repeatable
  }

  /// The long name without dashes: `archive` for `--archive`.
  package var long: String
  /// The optional one-letter name without the dash: `o` for `-o`.
  package var short: Character?
  /// The placeholder for the value in help and usage: `FILE`.
  package var valueName: String
  /// One or two sentences for the help screen.
  package var help: String
  package var kind: Kind
  /// The value used when the option is absent; shown in help as `(default: …)`.
  package var defaultValue: String?
  /// Whether the command cannot run without it (valued options only).
  package var isRequired: Bool
  /// What a shell may offer for its value.
  package var completion: Completion

  package init(
    long: String, short: Character? = nil, valueName: String = "", help: String, kind: Kind,
    defaultValue: String? = nil, isRequired: Bool = false, completion: Completion = .none
  ) {
    self.long = OptionSpec.bareName(long)
    self.short = short
    self.valueName = valueName
    self.help = help
    self.kind = kind
    self.defaultValue = defaultValue
    self.isRequired = isRequired
    self.completion = completion
  }

  /// A flag: `.flag("json", help: "Print JSON.")`.
  package static func flag(_ long: String, short: Character? = nil, help: String) -> OptionSpec {
    OptionSpec(long: long, short: short, help: help, kind: .flag)
  }

  /// An option with one value: `.value("archive", valueName: "FILE", help: "…")`.
  package static func value(
    _ long: String, short: Character? = nil, valueName: String, help: String,
    default defaultValue: String? = nil, required: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      long: long, short: short, valueName: valueName, help: help, kind: .value,
      defaultValue: defaultValue, isRequired: required)
  }

  /// An option that may be given many times; values are kept in order.
  package static func repeatable(
    _ long: String, short: Character? = nil, valueName: String, help: String,
    required: Bool = false
  ) -> OptionSpec {
    OptionSpec(
      long: long, short: short, valueName: valueName, help: help, kind: .repeatable,
      isRequired: required)
  }

  // MARK: - Display

  /// `--archive`.
  package var dashedLong: String { "--" + long }

  /// `--archive FILE` or `--json`: how errors and usage lines name the option.
  package var synopsis: String {
    kind == .flag ? dashedLong : "\(dashedLong) \(valueName)"
  }

  /// The help label: `-o, --output FILE`, or `    --archive FILE` so long names line up.
  package var helpLabel: String {
    let names = (short.map { "-\($0), " } ?? "    ") + dashedLong
    return kind == .flag ? names : "\(names) \(valueName)"
  }

  var takesValue: Bool { kind != .flag }

  /// "--archive" → "archive"; "archive" → "archive".
  static func bareName(_ name: String) -> String {
    String(name.drop(while: { $0 == "-" }))
  }

  // MARK: - Built-in options

  /// `-h, --help`, added to every command.
  package static let help = OptionSpec.flag("help", short: "h", help: "Show help information.")
  /// `--version`, added to the root command when it declares a version.
  package static let version = OptionSpec.flag("version", help: "Show the version.")
  /// `--verbose`, beside `--version` on a root with version details.
  package static let verbose = OptionSpec.flag(
    "verbose", help: "With --version: also the libraries linked in and their versions.")
}
