// Arguments and options that several commands take, declared once.

import InklingArchive
import InklingCommandLine

enum Common {
  /// A draft's name, completed from the archive's names.
  static let draft = Argument(
    "DRAFT", .text, help: "The draft's name, exactly (as `list` shows it).",
    completion: .command(["list", "--paths", "--null"]))

  /// `--version N`, as `history` numbers versions.
  static func version(_ help: String) -> Option<Int?> {
    Option("version", valueName: "N", .positive, help: help)
  }

  /// `-o FILE`, `-` for standard output.
  static func output(_ valueName: String, _ help: String) -> Option<String> {
    Option(
      "output", short: "o", valueName: valueName, .file, required: (), help: help + " `-` writes to standard output.")
  }

  static let force = Flag(
    "force", short: "f",
    help: "Replace a regular file that already exists (a FIFO or device is written into, never replaced).")

  /// `--source LABEL`, where imported versions came from.
  static func source(_ help: String) -> Option<String?> {
    Option("source", valueName: "LABEL", .text, help: help)
  }
}
