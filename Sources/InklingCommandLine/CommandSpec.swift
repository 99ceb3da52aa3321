// CommandSpec: the declarative description of a command and its subcommands.
//
// Everything the user sees — parsing, usage lines, help, error messages — is derived from this
// value alone, as in swift-argument-parser. A spec is plain data: build it as a `static let`.
//
// Invariants (checked by `problems()`, asserted by CommandLineProgram in debug builds):
//   1. Option long and short names are unique within a command, and none is `help`/`h`
//      (built in), nor `version` on a root that declares a version.
//   2. Short names are letters, or digits for flags (`-0`), matched only when written alone,
//      so `-5` and `-1d` are values everywhere else.
//   3. A command has either subcommands or positional arguments, not both.
//   4. Only the last positional argument may repeat; no optional argument precedes a required one.
//   5. Exclusive groups name options the command (or an ancestor) declares.

/// A command: name, one-line abstract, arguments, options and subcommands.
package struct CommandSpec: Sendable {
  package var name: String
  /// One line, shown in the parent's command list and as the help OVERVIEW.
  package var abstract: String
  /// Paragraphs and examples shown in help after the overview. Lines that start with a space
  /// are printed as written (examples); other lines are wrapped to 80 columns.
  package var discussion: String?
  /// Sections of their own after the commands, in help and in the manual (where each is a
  /// `.SH`): the root's EXIT STATUS, ENVIRONMENT and FILES.
  package var sections: [HelpSection]
  package var arguments: [ArgumentSpec]
  package var options: [OptionSpec]
  /// Groups of option names of which at most one may be given: `[["--version", "--at"]]`.
  package var exclusiveGroups: [[String]]
  /// The subcommands by name, each spec made when asked for: parsing one command line makes
  /// only the specs on its path, not every command's (a one-shot command starts sooner).
  private var declared: [Subcommand]
  /// The root's version string; when set, the root gets a built-in `--version` flag.
  package var version: String?
  /// What `--version --verbose` adds below the version (the libraries linked in); when set, the
  /// root also gets a built-in `--verbose` flag, valid only beside `--version`.
  package var versionDetails: (@Sendable () -> String)?

  /// A subcommand: its name, and how to make its spec (whose name must be the same).
  package struct Subcommand: Sendable {
    package var name: String
    /// Left out of help, the manual, completions and suggestions: a command that scripts run
    /// (the completion scripts' own), documented where they are. It parses and runs as any.
    package var hidden: Bool
    package var make: @Sendable () -> CommandSpec

    package init(_ name: String, hidden: Bool = false, _ make: @escaping @Sendable () -> CommandSpec) {
      self.name = name
      self.hidden = hidden
      self.make = make
    }
  }

  package init(
    _ name: String, abstract: String, discussion: String? = nil, sections: [HelpSection] = [],
    arguments: [ArgumentSpec] = [], options: [OptionSpec] = [],
    exclusive exclusiveGroups: [[String]] = [], subcommands: [CommandSpec] = [],
    lazySubcommands: [Subcommand] = [], version: String? = nil,
    versionDetails: (@Sendable () -> String)? = nil
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.sections = sections
    self.arguments = arguments
    self.options = options
    self.exclusiveGroups = exclusiveGroups.map { $0.map(OptionSpec.bareName) }
    self.declared = subcommands.map { spec in Subcommand(spec.name) { spec } } + lazySubcommands
    self.version = version
    self.versionDetails = versionDetails
  }

  /// Every subcommand's spec but the hidden ones, in declaration order (help, the manual,
  /// completions).
  package var subcommands: [CommandSpec] { declared.filter { !$0.hidden }.map { $0.make() } }

  /// The subcommands' names but the hidden ones, without making their specs.
  package var subcommandNames: [String] { declared.filter { !$0.hidden }.map(\.name) }

  /// Every subcommand, hidden ones too: its declared name and its spec.
  package var everySubcommand: [(name: String, spec: CommandSpec)] { declared.map { ($0.name, $0.make()) } }

  package var hasSubcommands: Bool { !declared.isEmpty }

  /// The subcommand called `name`, if any.
  package func subcommand(named name: String) -> CommandSpec? {
    declared.first { $0.name == name }?.make()
  }

  /// The command reached by following `path` (names below this one); nil if a name is unknown.
  package func descendant(at path: [String]) -> CommandSpec? {
    var command = self
    for name in path {
      guard let next = command.subcommand(named: name) else { return nil }
      command = next
    }
    return command
  }

  /// The specs from this root down to the command at `path`; nil if a name is unknown.
  func chain(to path: [String]) -> [CommandSpec]? {
    var chain = [self]
    for name in path {
      guard let next = chain[chain.count - 1].subcommand(named: name) else { return nil }
      chain.append(next)
    }
    return chain
  }

  /// Declared options plus the built-ins: `--version` (and `--verbose` beside it) on a root with
  /// a version, `--help` everywhere.
  func effectiveOptions(isRoot: Bool) -> [OptionSpec] {
    var all = options
    if isRoot, version != nil, !options.contains(where: { $0.long == "version" }) {
      all.append(.version)
      if versionDetails != nil { all.append(.verbose) }
    }
    all.append(.help)
    return all
  }
}

/// A titled section of help: paragraphs as in a discussion.
package struct HelpSection: Sendable {
  /// Upper case, as the manual's section headings: "EXIT STATUS".
  package var title: String
  package var text: String

  package init(_ title: String, _ text: String) {
    self.title = title
    self.text = text
  }
}
