// Shell completion scripts for bash, zsh and fish, generated from the command tree alone:
// command names, each command's options (and the global ones), option values by their
// declared completion (files, folders, a fixed list, or values the program itself prints, such
// as the draft names that start with the word typed, from `inkling-archive complete-names`),
// and positional arguments likewise. What does not depend on the tree (the functions that
// unquote, quote and list values) is shell text in `Completions/`, one file per shell, which
// the tables made here are put into (CompletionTemplate).

/// A completion script for a command tree.
package enum CompletionScript {
  package enum Shell: String, CaseIterable, Sendable {
    case bash, zsh, fish
  }

  package static func render(_ root: CommandSpec, shell: Shell) -> String {
    switch shell {
    case .bash: bash(root)
    case .zsh: zsh(root)
    case .fish: fish(root)
    }
  }

  // MARK: - bash

  private static func bash(_ root: CommandSpec) -> String {
    let function = "_" + identifier(root.name)
    let globals = root.options + [.help]
    let forwarded = root.options.filter { $0.kind != .flag }
    let others = valuedPattern([], extra: root.subcommands.flatMap(\.options), except: Set(forwarded.map(\.long)))
    var tables = "  case \"$prev\" in\n"
    for option in globals where option.kind != .flag {
      tables += "    \(names(option))) \(bashValues(option.completion, function: function)); return ;;\n"
    }
    tables += "  esac\n"
    tables += "  case \"$command\" in\n"
    tables +=
      "    \"\") COMPREPLY=($(compgen -W \"\(root.subcommands.map(\.name).joined(separator: " ")) "
      + "\(globals.map(\.dashedLong).joined(separator: " "))\" -- \"$cur\")); return ;;\n"
    for command in root.subcommands {
      let options = command.options + globals
      tables += "    \(command.name))\n"
      tables += "      case \"$prev\" in\n"
      for option in command.options where option.kind != .flag {
        tables += "        \(names(option))) \(bashValues(option.completion, function: function)); return ;;\n"
      }
      tables += "      esac\n"
      tables +=
        "      if [[ \"$cur\" == -* ]]; then COMPREPLY=($(compgen -W \""
        + options.map(\.dashedLong).joined(separator: " ") + "\" -- \"$cur\")); return; fi\n"
      let completions = command.arguments.map(\.completion)
      if !completions.isEmpty {
        tables += "      case ${#positionals[@]} in\n"
        for (index, completion) in completions.enumerated() {
          let last = index == completions.count - 1 && command.arguments[index].arity.repeats
          tables += "        \(last ? "*" : String(index))) \(bashValues(completion, function: function)) ;;\n"
        }
        tables += "      esac\n"
      }
      tables += "      ;;\n"
    }
    tables += "  esac"
    return CompletionTemplate.bash.filled([
      "PROGRAM": root.name, "FUNCTION": function, "FORWARDED": forwarded.map(names).joined(separator: "|"),
      "OTHERS": others, "TABLES": tables,
    ])
  }

  /// The bash that completes `completion`; `.command` values only through `_values`, the
  /// fixed words of our own tables through compgen.
  private static func bashValues(_ completion: Completion, function: String) -> String {
    switch completion {
    case .none: "COMPREPLY=()"
    // File names are data too: one a line through mapfile (no splitting at spaces, no
    // globbing), quoted on insertion by readline (`-o filenames`).
    case .files: "\(function)_files -f"
    case .folders: "\(function)_files -d"
    case .choices(let values): "COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\" -- \"$cur\"))"
    case .command(let arguments): "\(function)_values \(arguments.joined(separator: " "))"
    case .prefixed(let arguments): "\(function)_prefixed \(arguments.joined(separator: " "))"
    }
  }

  /// `-o|--output` for a case pattern.
  private static func names(_ option: OptionSpec) -> String {
    (option.short.map { "-\($0)|" } ?? "") + option.dashedLong
  }

  private static func valuedPattern(_ options: [OptionSpec], extra: [OptionSpec], except: Set<String> = []) -> String {
    var seen = except
    var patterns: [String] = []
    for option in options + extra where option.kind != .flag && seen.insert(option.long).inserted {
      patterns.append(names(option))
    }
    return patterns.isEmpty ? "--" : patterns.joined(separator: "|")
  }

  // MARK: - zsh

  private static func zsh(_ root: CommandSpec) -> String {
    let function = "_" + identifier(root.name)
    let forwarded = root.options.filter { $0.kind != .flag }
    var globals: [String] = []
    for option in forwarded {
      // The global option as given before the command (saved by the main function), or
      // after it (in the command's own opt_args).
      let keys = ([option.dashedLong] + (option.short.map { ["-\($0)"] } ?? [])).map { "opt_args[\($0)]" }
      globals += [
        "  value=\(keys.map { "${\($0)}" }.joined())",
        "  [[ -z \"$value\" ]] && value=\"${\(function)_saved[\(option.dashedLong)]}\"",
        "  if [[ -n \"$value\" ]]; then", "    value=\"${(Q)value}\"",
        "    [[ \"$value\" == '~/'* ]] && value=\"$HOME/${value#'~/'}\"",
        "    globals+=(\(option.dashedLong) \"$value\")", "  fi",
      ]
    }
    var commands = ""
    for command in root.subcommands {
      commands += "\(function)_\(identifier(command.name))() {\n  _arguments -s \\\n"
      for option in command.options + root.options + [.help] {
        commands += "    \(zshOption(option, root: root)) \\\n"
      }
      for (index, argument) in command.arguments.enumerated() {
        let position = argument.arity.repeats ? "*" : String(index + 1)
        commands += "    '\(position):\(zshQuote(argument.name)):\(zshAction(argument.completion, root: root))' \\\n"
      }
      commands += "    && return 0\n}\n\n"
    }
    commands += "\(function)() {\n  local line state\n  local -A opt_args \(function)_saved\n  _arguments -C \\\n"
    for option in root.options + [.help] { commands += "    \(zshOption(option, root: root)) \\\n" }
    commands += "    '1:command:->command' '*::argument:->argument'\n"
    commands += "  \(function)_saved=(\"${(@kv)opt_args}\")\n"
    commands += "  case $state in\n    command)\n      local -a commands=(\n"
    for command in root.subcommands {
      commands += "        '\(command.name):\(zshQuote(command.abstract))'\n"
    }
    commands += "      )\n      _describe command commands ;;\n    argument)\n      case $line[1] in\n"
    for command in root.subcommands {
      commands += "        \(command.name)) \(function)_\(identifier(command.name)) ;;\n"
    }
    commands += "      esac ;;\n  esac\n}\n\n\(function) \"$@\""
    return CompletionTemplate.zsh.filled([
      "PROGRAM": root.name, "FUNCTION": function, "GLOBALS": globals.joined(separator: "\n"), "COMMANDS": commands,
    ])
  }

  private static func zshOption(_ option: OptionSpec, root: CommandSpec) -> String {
    let help = "[\(zshQuote(option.help).replacing("]", with: "\\]"))]"
    let value = option.kind == .flag ? "" : ":\(zshQuote(option.valueName)):\(zshAction(option.completion, root: root))"
    let repeats = option.kind == .repeatable ? "*" : ""
    // `--name=` and `-n+`: the value as the next word or in the same one (`--archive=FILE`).
    let (long, shortSuffix) = option.kind == .flag ? ("--\(option.long)", "") : ("--\(option.long)=", "+")
    if let short = option.short {
      return "'\(repeats)(-\(short) --\(option.long))'{-\(short)\(shortSuffix),\(long)}'\(help)\(value)'"
    }
    return "'\(repeats)\(long)\(help)\(value)'"
  }

  private static func zshAction(_ completion: Completion, root: CommandSpec) -> String {
    switch completion {
    case .none: " "
    case .files: "_files"
    case .folders: "_files -/"
    case .choices(let values): "(\(values.joined(separator: " ")))"
    // In braces: a plain action is called with compadd's options before its own arguments.
    case .command(let arguments): "{_\(identifier(root.name))_values \(arguments.joined(separator: " "))}"
    case .prefixed(let arguments): "{_\(identifier(root.name))_prefixed \(arguments.joined(separator: " "))}"
    }
  }

  /// Text inside a single-quoted zsh word, without the characters _arguments gives meaning.
  private static func zshQuote(_ text: String) -> String {
    text.replacing("'", with: "'\\''").replacing(":", with: "\\:")
  }

  // MARK: - fish

  private static func fish(_ root: CommandSpec) -> String {
    let function = "__" + identifier(root.name)
    var cases: [String] = []
    for option in root.options where option.kind != .flag {
      // `~/` as the shell would have expanded it on the line: commandline -o does not.
      cases += [
        "            case \(option.dashedLong)", "                if test $i -lt (count $tokens)",
        "                    set globals $globals \(option.dashedLong) (string replace -r -- '^~/' \"$HOME/\" "
          + "$tokens[(math $i + 1)])",
        "                end", "            case '\(option.dashedLong)=*'",
        "                set globals $globals \(option.dashedLong) (string replace -r -- '^~/' \"$HOME/\" "
          + "(string replace -- '\(option.dashedLong)=' '' $tokens[$i]))",
      ]
    }
    var completions = ""
    let commands = root.subcommands.map(\.name).joined(separator: " ")
    for command in root.subcommands {
      completions +=
        "complete -c \(root.name) -n 'not __fish_seen_subcommand_from \(commands)' -a \(command.name) "
        + "-d \(fishQuote(command.abstract))\n"
    }
    for option in root.options {
      completions += fishOption(option, condition: nil, root: root)
    }
    for command in root.subcommands {
      let condition = "__fish_seen_subcommand_from \(command.name)"
      for option in command.options { completions += fishOption(option, condition: condition, root: root) }
      for argument in command.arguments where argument.completion != .none {
        completions +=
          "complete -c \(root.name) -n '\(condition)' \(fishValues(argument.completion, root: root)) "
          + "-d \(fishQuote(argument.help))\n"
      }
    }
    return CompletionTemplate.fish.filled([
      "PROGRAM": root.name, "FUNCTION": function, "CASES": cases.joined(separator: "\n"),
      "COMPLETIONS": String(completions.dropLast()),
    ])
  }

  private static func fishOption(_ option: OptionSpec, condition: String?, root: CommandSpec) -> String {
    var line = "complete -c \(root.name)"
    if let condition { line += " -n '\(condition)'" }
    if let short = option.short { line += " -s \(short)" }
    line += " -l \(option.long)"
    if option.kind != .flag { line += " -r " + fishValues(option.completion, root: root) }
    return line + " -d \(fishQuote(option.help))\n"
  }

  private static func fishValues(_ completion: Completion, root: CommandSpec) -> String {
    switch completion {
    case .none: "-f"
    case .files: "-F"
    case .folders: "-f -a '(__fish_complete_directories)'"
    case .choices(let values): "-f -a \(fishQuote(values.joined(separator: " ")))"
    case .command(let arguments): "-f -a '(__\(identifier(root.name))_values \(arguments.joined(separator: " ")))'"
    case .prefixed(let arguments): "-f -a '(__\(identifier(root.name))_prefixed \(arguments.joined(separator: " ")))'"
    }
  }

  private static func fishQuote(_ text: String) -> String {
    "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
  }

  /// `inkling-archive` → `inkling_archive`, a name shells accept for functions.
  private static func identifier(_ name: String) -> String {
    String(name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
  }
}
