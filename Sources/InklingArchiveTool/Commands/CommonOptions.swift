// Arguments and options that several commands take, declared once.

import InklingArchive
import InklingCommandLine
import InklingFormats

enum Common {
  /// Refuses --json for a command that prints a document (a manual page, a script, a notice):
  /// its text has no JSON form, and a script asking for one is told so in JSON.
  static func refuseJSON(_ parsed: ParsedArguments, prints document: String) throws(UsageError) {
    guard parsed.value(RootCommand.json) else { return }
    throw parsed.usageError(
      "\(parsed.commandPath.joined(separator: " ")) prints \(document), not JSON: leave out --json")
  }

  /// A draft's name, completed from the archive's names.
  static let draft = Argument(
    "DRAFT", .draftName, help: "The draft's name, exactly (as `list` shows it, in its quotes if it has them).",
    completion: .prefixed(["complete-names"]))

  /// `--version N`, as `history` numbers versions, or a version's label (`label`).
  static func version(_ help: String) -> Option<VersionSelector?> {
    Option("version", valueName: "N", .version, help: help + " N may be a label (`label`).")
  }

  /// `-o FILE`, `-` for standard output.
  static func output(_ valueName: String, _ help: String) -> Option<String> {
    Option(
      "output", short: "o", valueName: valueName, .file, required: (), help: help + " `-` writes to standard output.")
  }

  static let force = Flag(
    "force", short: "f",
    help: "Replace a regular file that already exists (a FIFO or device is written into, never replaced).")

  /// `--query QUERY`: a query in the search language or `@NAME`, a saved search.
  static func query(_ help: String) -> Option<String?> {
    Option("query", valueName: "QUERY", .query, help: help + " " + savedSearchHelp)
  }

  /// What every QUERY says of `@NAME`.
  static let savedSearchHelp = "@NAME runs the search saved as NAME (`search --save`)."

  /// `--source LABEL`, where imported versions came from.
  static func source(_ help: String) -> Option<String?> {
    Option("source", valueName: "LABEL", .text, help: help)
  }
}

extension ValueKind where Value == VersionSelector {
  /// A version's number from 1, as `history` numbers versions, or its label.
  static var version: ValueKind {
    ValueKind(
      expected: "a version's number (1 or more) or label",
      format: {
        switch $0 {
        case .number(let number): "\(number)"
        case .label(let name): name
        case .latest: "the newest"
        case .at: "a date"
        }
      },
      parse: VersionSelector.init(argument:))
  }
}

extension ValueKind where Value == String {
  /// A query in the search language, or `@NAME`: a word that starts with `@` is completed
  /// with the names of the archive's saved searches.
  static var query: ValueKind {
    ValueKind(
      expected: "a query", completion: .prefixed(["complete-names", "--saved"]), format: { $0 }, parse: { $0 })
  }

  /// A draft's name as typed, or as printed: a name shown quoted and escaped (`"x\u{202E}y"`,
  /// Quoted) given back exactly so, quotes and all, is the name it stands for. Only a text
  /// that is the very form Quoted prints for some name is read so: a draft really called
  /// `"Cat"`, which is printed `"\"Cat\""`, is still reached by `"Cat"` as typed.
  static var draftName: ValueKind {
    ValueKind(
      expected: "a draft's name", format: { $0 },
      parse: { text in Quoted.unescaped(text).flatMap { Quoted.display($0) == text ? $0 : nil } ?? text })
  }
}
