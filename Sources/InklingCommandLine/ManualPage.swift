// The manual page (man(7) roff), generated from the command tree alone, as
// swift-argument-parser's `generate-manual` does: the root's overview, synopsis and global
// options, then a section per command with its usage line, help and options. Nothing is
// written twice: what `--help` says, the manual says.

/// A manual page for a command tree.
package enum ManualPage {
  /// The page for `root`, in section 1, headed with its name and version (no date: the page
  /// is the same whenever it is generated).
  package static func render(_ root: CommandSpec) -> String {
    var page: [String] = []
    page.append(".TH \(root.name.uppercased()) 1 \"\" \"\(root.name) \(root.version ?? "")\"")
    page.append(".SH NAME")
    page.append("\(escape(root.name)) \\- \(escape(root.abstract))")
    page.append(".SH SYNOPSIS")
    page.append(".B \(escape(root.name))")
    page.append(escape(UsageLine.elements(of: root).joined(separator: " ")))
    if let discussion = root.discussion {
      page.append(".SH DESCRIPTION")
      page += paragraphs(discussion)
    }
    if !root.options.isEmpty {
      page.append(".SH OPTIONS")
      page += root.options.flatMap(option)
    }
    page.append(".SH COMMANDS")
    for command in root.subcommands {
      page += section(command, chain: [root])
    }
    for section in root.sections {
      page.append(".SH \(escape(section.title))")
      page += paragraphs(section.text)
    }
    return page.joined(separator: "\n") + "\n"
  }

  private static func section(_ command: CommandSpec, chain: [CommandSpec]) -> [String] {
    let path = chain + [command]
    var lines = [".SS \(escape(path.dropFirst().map(\.name).joined(separator: " ")))"]
    lines.append(".B \(escape(UsageLine.line(for: path)))")
    lines.append(".PP")
    lines.append(escape(command.abstract))
    if let discussion = command.discussion { lines += paragraphs(discussion) }
    for argument in command.arguments {
      lines.append(".TP")
      lines.append(".I \(escape(argument.synopsis))")
      lines.append(escape(argument.help))
    }
    lines += command.options.flatMap(option)
    for subcommand in command.subcommands { lines += section(subcommand, chain: path) }
    return lines
  }

  private static func option(_ option: OptionSpec) -> [String] {
    var names = option.short.map { "\\fB\\-\($0)\\fR, " } ?? ""
    names += "\\fB\\-\\-\(escape(option.long))\\fR"
    if option.kind != .flag { names += " \\fI\(escape(option.valueName))\\fR" }
    var help = escape(option.help)
    if let value = option.defaultValue { help += " (default: \(escape(value)))" }
    if option.kind == .repeatable { help += " (can be repeated)" }
    return [".TP", names, help]
  }

  /// Help paragraphs as roff: blank lines start paragraphs, indented lines (examples) are
  /// kept as they are.
  private static func paragraphs(_ text: String) -> [String] {
    var lines: [String] = [".PP"]
    var inExample = false
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty {
        if inExample {
          lines.append(".fi")
          inExample = false
        }
        lines.append(".PP")
      } else if line.hasPrefix(" ") {
        if !inExample {
          lines.append(".nf")
          inExample = true
        }
        lines.append(escape(String(line)))
      } else {
        if inExample {
          lines.append(".fi")
          inExample = false
        }
        lines.append(escape(String(line)))
      }
    }
    if inExample { lines.append(".fi") }
    return lines
  }

  /// Text made safe for roff: backslashes and hyphens escaped, a leading `.` or `'` (a
  /// request) neutralised.
  static func escape(_ text: String) -> String {
    var out = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}
