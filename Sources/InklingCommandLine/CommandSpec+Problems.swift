// Checks a command tree against the invariants listed in CommandSpec.swift.
//
// A broken spec is our bug, not the user's, so the program asserts on it rather than reporting
// a usage error; tests call `problems()` to pin the real command tree down.

extension CommandSpec {
  /// Every violated invariant in this tree, each prefixed with the command path; empty when valid.
  package func problems() -> [String] {
    var found: [String] = []
    collectProblems(into: &found, path: [name], ancestors: [], isRoot: true)
    return found
  }

  private func collectProblems(
    into found: inout [String], path: [String], ancestors: [OptionSpec], isRoot: Bool
  ) {
    let whereAt = path.joined(separator: " ")
    var longs: Set<String> = []
    var shorts: Set<Character> = []
    for option in options {
      if !longs.insert(option.long).inserted {
        found.append("\(whereAt): option '--\(option.long)' declared twice")
      }
      if option.long == "help" || (isRoot && version != nil && option.long == "version") {
        found.append("\(whereAt): option '--\(option.long)' is built in")
      }
      if option.long.isEmpty || option.long.contains("=") || option.long.contains(" ") {
        found.append("\(whereAt): option name '\(option.long)' is not usable")
      }
      if let short = option.short {
        if !shorts.insert(short).inserted {
          found.append("\(whereAt): option '-\(short)' declared twice")
        }
        if short == "h" { found.append("\(whereAt): option '-h' is built in") }
        if !short.isLetter && !(short.isNumber && option.kind == .flag) {
          found.append("\(whereAt): short name '-\(short)' must be a letter, or a digit for a flag")
        }
      }
      if option.kind != .flag && option.valueName.isEmpty {
        found.append("\(whereAt): option '--\(option.long)' needs a value name")
      }
      if option.kind == .flag && option.isRequired {
        found.append("\(whereAt): flag '--\(option.long)' cannot be required")
      }
      // `--help` is where a person learns the values; completion is not on every shell.
      if case .choices(let values) = option.completion, let missing = values.first(where: { !option.help.contains($0) })
      {
        found.append("\(whereAt): the help of '--\(option.long)' does not name its value '\(missing)'")
      }
    }
    if hasSubcommands && !arguments.isEmpty {
      found.append("\(whereAt): a command has either subcommands or arguments, not both")
    }
    for (index, argument) in arguments.enumerated() {
      if argument.arity.repeats && index != arguments.count - 1 {
        found.append("\(whereAt): only the last argument may repeat ('\(argument.name)')")
      }
      if argument.arity.isRequired,
        arguments[..<index].contains(where: { !$0.arity.isRequired })
      {
        found.append("\(whereAt): required argument '\(argument.name)' follows an optional one")
      }
    }
    let visible = Set((options + ancestors).map(\.long))
    for group in exclusiveGroups {
      if group.count < 2 {
        found.append("\(whereAt): exclusive group \(group) has fewer than two options")
      }
      for name in group where !visible.contains(name) {
        found.append("\(whereAt): exclusive group names unknown option '--\(name)'")
      }
    }
    var seen: Set<String> = []
    for (name, subcommand) in everySubcommand {
      if subcommand.name != name {
        found.append("\(whereAt): subcommand '\(name)' makes a spec named '\(subcommand.name)'")
      }
      if !seen.insert(subcommand.name).inserted {
        found.append("\(whereAt): subcommand '\(subcommand.name)' declared twice")
      }
      subcommand.collectProblems(
        into: &found, path: path + [subcommand.name], ancestors: ancestors + options, isRoot: false)
    }
  }
}
