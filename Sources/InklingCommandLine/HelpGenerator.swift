// The help screen, generated from the spec alone, wrapped to 80 columns:
//
//     OVERVIEW: <abstract>
//
//     <discussion: paragraphs wrapped, indented lines (examples) kept as written>
//
//     USAGE: inkling-archive restore DRAFT [--version N | --at DATE] ...
//
//     ARGUMENTS:
//       DRAFT                   The draft's name.
//
//     OPTIONS:
//           --version N         Restore version N.
//       -h, --help              Show help information.
//
//     GLOBAL OPTIONS:           (a subcommand's view of its ancestors' options)
//           --archive FILE      ...
//
//     COMMANDS:                 (commands with subcommands)
//       import                  ...
//
//       See 'inkling-archive help <command>' for detailed help.
//
//     EXIT STATUS:              (the spec's own sections, indented paragraphs)
//       0 all good. ...
//
// Every section uses the same label column: as wide as the widest label, at most 24; a longer
// label puts its help on the next line.

import InklingTextWidth

package enum HelpGenerator {
  static let screenWidth = 80
  static let maxLabelWidth = 24

  /// The help screen for the command at `path` (names below the root).
  /// Precondition: `path` names existing commands (the parser only produces such paths).
  package static func help(for path: [String], root: CommandSpec) -> String {
    guard let chain = root.chain(to: path) else {
      preconditionFailure("help for unknown command path \(path)")
    }
    let command = chain[chain.count - 1]
    let isRoot = chain.count == 1

    var sections: [(title: String, rows: [(label: String, help: String)])] = []
    if !command.arguments.isEmpty {
      sections.append(("ARGUMENTS", command.arguments.map { ($0.name, $0.help) }))
    }
    sections.append(("OPTIONS", command.effectiveOptions(isRoot: isRoot).map(row)))
    let own = Set(command.options.map(\.long))
    let globals = chain.dropLast().reversed().flatMap(\.options).filter { !own.contains($0.long) }
    if !globals.isEmpty { sections.append(("GLOBAL OPTIONS", globals.map(row))) }
    if command.hasSubcommands {
      sections.append(("COMMANDS", command.subcommands.map { ($0.name, $0.abstract) }))
    }

    var blocks: [[String]] = []
    blocks.append(TextWrapping.wrap("OVERVIEW: " + command.abstract, width: screenWidth))
    if let discussion = command.discussion, !discussion.isEmpty {
      blocks.append(discussionLines(discussion))
    }
    let names = chain.map(\.name)
    blocks.append(
      TextWrapping.fill(
        names + UsageLine.elements(of: command), width: screenWidth,
        firstLinePrefix: "USAGE: ", indent: 7))

    let labelWidth = min(
      maxLabelWidth,
      sections.flatMap(\.rows).map { DisplayWidth.of($0.label) }.max() ?? 0)
    for section in sections {
      blocks.append(
        ["\(section.title):"] + section.rows.flatMap { rowLines($0, labelWidth: labelWidth) })
    }
    if command.hasSubcommands {
      blocks.append(["  See '\(names[0]) help <command>' for detailed help."])
    }
    for section in command.sections {
      blocks.append(["\(section.title):"] + discussionLines(section.text, indent: 2))
    }
    return blocks.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
  }

  /// `-o, --output FILE` and its help with default and repetition noted.
  private static func row(_ option: OptionSpec) -> (label: String, help: String) {
    var help = option.help
    // No-break spaces keep each note on one line when wrapping; rowLines turns them back.
    if let value = option.defaultValue { help += " (default:\u{A0}\(value))" }
    if option.kind == .repeatable { help += " (can\u{A0}be\u{A0}repeated)" }
    return (option.helpLabel, help)
  }

  private static func rowLines(_ row: (label: String, help: String), labelWidth: Int) -> [String] {
    let helpColumn = 2 + labelWidth + 2
    let helpLines = TextWrapping.wrap(row.help, width: screenWidth - helpColumn).map {
      $0.replacing("\u{A0}", with: " ")
    }
    let label = "  " + row.label
    let pad = String(repeating: " ", count: helpColumn)
    if DisplayWidth.of(row.label) > labelWidth {
      return [label] + helpLines.map { pad + $0 }
    }
    let first = label + String(repeating: " ", count: helpColumn - DisplayWidth.of(label))
    return helpLines.enumerated().map { index, line in
      (index == 0 ? first : pad) + line
    }.map(trimTrailingSpaces)
  }

  /// Paragraph lines are wrapped; lines starting with a space (examples) are kept as written.
  private static func discussionLines(_ discussion: String, indent: Int = 0) -> [String] {
    let margin = String(repeating: " ", count: indent)
    return discussion.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
      line.isEmpty
        ? [""]
        : line.hasPrefix(" ")
          ? [margin + line] : TextWrapping.wrap(String(line), width: screenWidth - indent).map { margin + $0 }
    }
  }

  private static func trimTrailingSpaces(_ line: String) -> String {
    var line = line
    while line.last == " " { line.removeLast() }
    return line
  }
}
