// ArgumentParser: argv → what to do (run a command, show help, show the version).
//
// Stages, as in swift-argument-parser:
//   1. SplitArguments classifies words into tokens.
//   2. CommandMatcher walks the tokens left to right, descending into subcommands and giving
//      each option its value(s).
//   3. Validation assigns positional arguments and checks required and exclusive options.
// Help wins over every error: `restore --bogus --help` shows restore's help.

/// What the command line asks for.
package enum ParseOutcome: Sendable {
  /// Run the command at `parsed.commandPath` with these values.
  case run(ParsedArguments)
  /// Show help for the command at this path (names below the root).
  case help(commandPath: [String])
  /// Print this version string, and below it `details` (`--version --verbose`).
  case version(String, details: String?)
}

/// Parses command lines against a root `CommandSpec`.
package struct ArgumentParser: Sendable {
  package let root: CommandSpec

  package init(root: CommandSpec) {
    self.root = root
  }

  /// Parses `arguments` (program name excluded). No arguments at all asks for the root's help,
  /// as a person typing the bare program name wants to see what it does.
  /// - Throws: `UsageError` naming the first mistake, with the command path it concerns.
  package func parse(_ arguments: [String]) throws(UsageError) -> ParseOutcome {
    if arguments.isEmpty && root.hasSubcommands { return .help(commandPath: []) }
    let tokens = SplitArguments.split(arguments)
    // `-h`/`--help` anywhere (before `--`) wins even over a mistake made earlier on the line.
    let asksForHelp = tokens.contains {
      $0.kind == .long(name: "help", value: nil) || $0.kind == .short(letters: ["h"])
    }
    var matcher = CommandMatcher(root: root, tokens: tokens)
    do {
      try matcher.match()
    } catch {
      if matcher.helpRequested || asksForHelp { return .help(commandPath: matcher.path) }
      if let topic = matcher.helpTopic {
        return .help(commandPath: try resolveHelpTopic(topic, from: matcher.path))
      }
      throw error
    }
    if matcher.helpRequested { return .help(commandPath: matcher.path) }
    if let topic = matcher.helpTopic {
      return .help(commandPath: try resolveHelpTopic(topic, from: matcher.path))
    }
    if let version = root.version, matcher.versionRequested {
      return .version(version, details: matcher.verboseRequested ? root.versionDetails?() : nil)
    }
    if matcher.verboseRequested { throw .verboseWithoutVersion(root: root.name) }
    let leaf = matcher.chain[matcher.chain.count - 1]
    if leaf.hasSubcommands { throw .missingCommand(at: matcher.path) }
    return .run(
      try Validation.validate(
        chain: matcher.chain, values: matcher.values, positionals: matcher.positionals))
  }

  /// `help restore` → ["restore"]; `help resotre` → unknown command with a suggestion.
  private func resolveHelpTopic(_ topic: [String], from start: [String]) throws(UsageError)
    -> [String]
  {
    var path = start
    // `help help` is the help of the program itself, where `help` is described.
    for name in topic where !(name == "help" && path == start) {
      // `?? root` is never taken: `path` only ever holds names resolved one by one.
      let command = root.descendant(at: path) ?? root
      guard command.subcommand(named: name) != nil else {
        throw .unknownCommand(
          name, suggestion: Suggestion.nearest(to: name, among: command.subcommandNames),
          at: path)
      }
      path.append(name)
    }
    return path
  }
}

// MARK: - Stage 2: matching

/// Walks tokens left to right. Options resolve against the current command first, then its
/// ancestors, so root options are global and a subcommand's own option shadows a global one
/// of the same name (`show --version N` versus the root's `--version`).
struct CommandMatcher {
  let root: CommandSpec
  let tokens: [ArgumentToken]
  private(set) var chain: [CommandSpec]
  /// Per depth in `chain`: option long name → values in the order given ("" for flags).
  private(set) var values: [[String: [String]]]
  private(set) var positionals: [String] = []
  private(set) var helpRequested = false
  /// Set by the `help` pseudo-command: the names that follow it.
  private(set) var helpTopic: [String]?
  private var position = 0

  init(root: CommandSpec, tokens: [ArgumentToken]) {
    self.root = root
    self.tokens = tokens
    self.chain = [root]
    self.values = [[:]]
  }

  /// Names below the root of the command reached so far.
  var path: [String] { chain.dropFirst().map(\.name) }

  var verboseRequested: Bool {
    root.versionDetails != nil && !root.options.contains { $0.long == "verbose" }
      && values[0]["verbose"] != nil
  }

  var versionRequested: Bool {
    root.version != nil && !root.options.contains { $0.long == "version" }
      && values[0]["version"] != nil
  }

  mutating func match() throws(UsageError) {
    while position < tokens.count {
      let token = tokens[position]
      position += 1
      switch token.kind {
      case .terminator:
        continue
      case .long(let name, let inline):
        guard let (depth, option) = resolve(where: { $0.long == name }) else {
          throw .unknownOption(
            "--" + name,
            suggestion: Suggestion.nearest(to: name, among: visibleLongNames()).map { "--" + $0 },
            at: path)
        }
        if option.kind == .flag {
          if inline != nil { throw .flagWithValue(option, at: path) }
          record("", for: option, at: depth)
        } else if let inline {
          record(inline, for: option, at: depth)
        } else {
          record(try nextValue(for: option), for: option, at: depth)
        }
      case .short(let letters):
        try matchShort(letters)
      case .value(let word):
        try matchValue(word)
      }
    }
  }

  /// `-q`, `-qf` (flags together), `-o FILE`, `-oFILE`, `-qo FILE`.
  private mutating func matchShort(_ letters: [Character]) throws(UsageError) {
    var index = 0
    while index < letters.count {
      let letter = letters[index]
      index += 1
      guard let (depth, option) = resolve(where: { $0.short == letter }) else {
        throw .unknownOption("-\(letter)", suggestion: nil, at: path)
      }
      if option.kind == .flag {
        record("", for: option, at: depth)
        continue
      }
      // Appended one by one: String(letters[index...]) is the stdlib's unspecialised
      // generic initialiser, whose first call looks up conformances by scanning them all.
      var attached = ""
      for letter in letters[index...] { attached.append(letter) }
      record(attached.isEmpty ? try nextValue(for: option) : attached, for: option, at: depth)
      return
    }
  }

  /// A plain word: a digit flag (`-0`), a subcommand name, `help`, a help topic, or a
  /// positional argument.
  private mutating func matchValue(_ word: String) throws(UsageError) {
    if word.count == 2, word.hasPrefix("-"), let digit = word.last, digit.isNumber,
      let (depth, option) = resolve(where: { $0.short == digit }), option.kind == .flag
    {
      record("", for: option, at: depth)
      return
    }
    if helpTopic != nil {
      helpTopic?.append(word)
      return
    }
    let command = chain[chain.count - 1]
    if !command.hasSubcommands {
      positionals.append(word)
    } else if let subcommand = command.subcommand(named: word) {
      chain.append(subcommand)
      values.append([:])
    } else if word == "help" {
      helpTopic = []
    } else {
      throw .unknownCommand(
        word, suggestion: Suggestion.nearest(to: word, among: command.subcommandNames),
        at: path)
    }
  }

  /// The next token as the value of `option`; a following option or `--` is not a value.
  private mutating func nextValue(for option: OptionSpec) throws(UsageError) -> String {
    guard position < tokens.count, case .value(let word) = tokens[position].kind else {
      throw .missingValue(for: option, at: path)
    }
    position += 1
    return word
  }

  private mutating func record(_ value: String, for option: OptionSpec, at depth: Int) {
    if option == .help { helpRequested = true }
    values[depth][option.long, default: []].append(value)
  }

  /// The deepest command declaring a matching option, and that option.
  private func resolve(where matches: (OptionSpec) -> Bool) -> (Int, OptionSpec)? {
    for depth in stride(from: chain.count - 1, through: 0, by: -1) {
      if let option = chain[depth].effectiveOptions(isRoot: depth == 0).first(where: matches) {
        return (depth, option)
      }
    }
    return nil
  }

  private func visibleLongNames() -> [String] {
    chain.indices.reversed().flatMap { chain[$0].effectiveOptions(isRoot: $0 == 0).map(\.long) }
  }
}
