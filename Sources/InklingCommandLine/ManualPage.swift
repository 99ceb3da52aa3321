// The manual page (man(7) roff), generated from the command tree alone, as
// swift-argument-parser's `generate-manual` does: the root's overview, synopsis and global
// options, then a section per command with its usage line, help and options. Nothing is
// written twice: what `--help` says, the manual says.
//
// The page is what `mandoc -T lint` and `groff -ww` accept without a word: a dated `.TH`, no
// paragraph macro right after a heading (it would start nothing), only ASCII (every other
// character is a roff escape, so no input encoding has to be guessed), and input lines of 80
// bytes at most, as man(7) asks of a page's source.

/// A manual page for a command tree.
package enum ManualPage {
  /// The page for `root`, in section 1, headed with its name and version and dated `date`
  /// (`YYYY-MM-DD`, the version's date: the page is the same whenever it is generated).
  package static func render(_ root: CommandSpec, date: String) -> String {
    var page: [String] = []
    page.append(".TH \(root.name.uppercased()) 1 \(date) \"\(root.name) \(root.version ?? "")\"")
    page.append(".SH NAME")
    page.append("\(escape(root.name)) \\- \(escape(root.abstract))")
    page.append(".SH SYNOPSIS")
    page.append(".B \(escape(root.name))")
    page.append(escape(UsageLine.elements(of: root).joined(separator: " ")))
    if let discussion = root.discussion {
      page.append(".SH DESCRIPTION")
      page += paragraphs(discussion).dropFirst()
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
      page += paragraphs(section.text).dropFirst()
    }
    return wrapped(page).joined(separator: "\n") + "\n"
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

  /// The longest input line man(7) asks for.
  static let lineBytes = 80

  /// The page's text lines longer than `lineBytes` broken at single spaces (a break is a
  /// space to roff when it fills), outside `.nf` blocks, whose lines are printed as written.
  private static func wrapped(_ page: [String]) -> [String] {
    var lines: [String] = []
    var verbatim = false
    for line in page {
      if line == ".nf" { verbatim = true }
      if line == ".fi" { verbatim = false }
      guard !verbatim, !line.hasPrefix("."), line.utf8.count > lineBytes else {
        lines.append(line)
        continue
      }
      var current = ""
      var started = false
      for word in line.split(separator: " ", omittingEmptySubsequences: false) {
        // An empty word is one of several spaces in a row: kept with its neighbours, as a
        // line that starts with a space would break the filled text there.
        if started, !word.isEmpty, !current.hasSuffix(" "), current.utf8.count + 1 + word.utf8.count > lineBytes {
          lines.append(current)
          current = word.hasPrefix(".") || word.hasPrefix("'") ? "\\&" + word : String(word)
        } else {
          if started { current += " " }
          current += word
        }
        started = true
      }
      lines.append(current)
    }
    return lines
  }

  /// Text made safe for roff: backslashes and hyphens escaped, a leading `.` or `'` (a
  /// request) neutralised, and every character outside ASCII written as a roff escape:
  /// groff reads its input as Latin-1 unless told otherwise, so raw UTF-8 would print as
  /// other characters.
  static func escape(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\e"
      case "-": out += "\\-"
      case _ where scalar.isASCII: out.unicodeScalars.append(scalar)
      case "\u{2026}": out += "\\&..."
      case "\u{00D7}": out += "\\(mu"
      case "\u{2014}": out += "\\(em"
      case "\u{2013}": out += "\\(en"
      case "\u{2192}": out += "\\(->"
      default:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        out += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      }
    }
    if out.hasPrefix(".") || out.hasPrefix("'") { out = "\\&" + out }
    return out
  }
}
