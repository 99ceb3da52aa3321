// The one-line synopsis of a command, generated from its spec:
//
//     inkling-archive restore DRAFT [--version N | --at DATE] [--to DIR | --output FILE]
//
// Positional arguments come first, then options in declaration order. Options are shown by
// their long name; optional ones in brackets, repeatable ones with "...". An exclusive group
// whose options are all optional and in no other group is shown as one bracket with " | ".
// A command with subcommands ends in "<command>". Built-in --help/--version are left out.

enum UsageLine {
  /// The usage line for the last command of `chain` (root first), program name included.
  static func line(for chain: [CommandSpec]) -> String {
    let names = chain.map(\.name)
    return (names + elements(of: chain[chain.count - 1])).joined(separator: " ")
  }

  /// The words after the command's name: arguments, options, `<command>`.
  static func elements(of command: CommandSpec) -> [String] {
    var elements = command.arguments.map(\.synopsis)
    var shown: Set<String> = []
    for option in command.options where !shown.contains(option.long) {
      if let group = mergeableGroup(startingWith: option, in: command) {
        let members = group.compactMap { name in command.options.first { $0.long == name } }
        elements.append("[" + members.map(\.synopsis).joined(separator: " | ") + "]")
        shown.formUnion(group)
      } else {
        elements.append(synopsis(of: option))
        shown.insert(option.long)
      }
    }
    if command.hasSubcommands { elements.append("<command>") }
    return elements
  }

  /// `--to DIR` when required, `[--json]`, `[--name TEXT ...]`.
  static func synopsis(of option: OptionSpec) -> String {
    let repeats = option.kind == .repeatable ? " ..." : ""
    return option.isRequired ? option.synopsis + repeats : "[\(option.synopsis)\(repeats)]"
  }

  /// The group to show as `[a | b]` when `option` is its first member and the group is simple.
  private static func mergeableGroup(startingWith option: OptionSpec, in command: CommandSpec)
    -> [String]?
  {
    let groups = command.exclusiveGroups.filter { $0.contains(option.long) }
    guard groups.count == 1, let group = groups.first, group.first == option.long else {
      return nil
    }
    for name in group {
      guard let member = command.options.first(where: { $0.long == name }),
        !member.isRequired, member.kind != .repeatable,
        command.exclusiveGroups.filter({ $0.contains(name) }).count == 1
      else { return nil }
    }
    return group
  }
}
