import Foundation
import InklingFormats
import InklingTestSupport
import Testing

/// Text from an archive or a drawing reaches the terminal only quoted, by the one rule every
/// command, sentence and error follows: an escape sequence in an ink identifier, a draft or a
/// file name is shown as `\033`, a bidi override as `\u{202E}`, never sent raw.
@Suite struct TerminalQuotingTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }
  static let stamp = "2025-10-05T14:03:20Z"
  /// Sets the terminal's title and turns its text red, when printed raw.
  static let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[31m"

  init() throws {
    runner = try BinaryRunner(fresh: "quoting", making: ["Drafts"])
  }

  /// A draft file whose drawing's first ink is identified by `ink`.
  func writeDraft(_ name: String, ink: String, in drafts: String) throws {
    var drawing = try Drawing(bytes: DeviceSamples.drawing("three-pen-strokes"))
    drawing.inks[0].inkType = .other(ink)
    let base64 = Data(try DrawingWriter.write(drawing)).base64EncodedString()
    let text = #"{"drawingData":"\#(base64)","color":{"r":1,"g":1,"b":1,"a":1}}"#
    try Data(text.utf8).write(to: URL(fileURLWithPath: drafts + "/\(name)-\(Self.stamp).inkling"))
  }

  /// An archive at `name` holding a draft called `draft`, with its one stored drawing zeroed.
  func damagedArchive(_ name: String, draft: String) throws -> String {
    let drafts = try runner.temporary.makeFolder(name + "-files")
    try writeDraft(draft, ink: "com.apple.ink.pen", in: drafts)
    let path = folder + "/" + name + ".sqlite"
    let imported = try BinaryRunner(in: runner.temporary, archive: path).run(["import", drafts])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(try sqlite3(path, "UPDATE blob SET data = zeroblob(length(data)); SELECT changes()") == "1")
    return path
  }

  @Test func showQuotesAnInkIdentifierHoldingEscapeSequences() throws {
    try writeDraft("Inks", ink: "com.apple.ink.pen" + Self.hostile, in: folder + "/Drafts")
    #expect(try runner.run(["import", folder + "/Drafts"]).status == 0)
    let shown = try runner.run(["show", "Inks"])
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(!shown.stdout.contains("\u{1B}") && !shown.stdout.contains("\u{07}"), "\(shown.stdout)")
    let inks = shown.stdout.split(separator: "\n").first { $0.hasPrefix("Inks:") }
    #expect(inks?.contains(#"Inks:        "pen\033]0;pwned\a\033[31m" "#) == true, "\(shown.stdout)")
  }

  @Test func aMergeErrorQuotesHostileDraftAndFileNames() throws {
    _ = try damagedArchive("other", draft: "Dog" + Self.hostile)
    let stopped = try runner.run(["import", "other.sqlite"])
    #expect(stopped.status == 3, "\(stopped.stderr)")
    #expect(!stopped.stderr.contains("\u{1B}") && !stopped.stderr.contains("\u{07}"), "\(stopped.stderr)")
    #expect(
      stopped.stderr.hasPrefix(
        #"Error: other.sqlite is damaged: other.sqlite: "Dog\033]0;pwned\a\033[31m" version 1 ("#
          + #""Dog\033]0;pwned\a\033[31m-2025-10-05T14:03:20Z.inkling"): "#), "\(stopped.stderr)")
  }

  @Test func checkQuotesANameHoldingABidiOverride() throws {
    let path = try damagedArchive("bidi", draft: "Dog\u{202E}gnp.exe")
    let checked = try BinaryRunner(in: runner.temporary, archive: path).run(["check", "--full"])
    #expect(checked.status != 0)
    #expect(!checked.stdout.contains("\u{202E}"), "\(checked.stdout)")
    #expect(checked.stdout.contains(#"draft "Dog\u{202E}gnp.exe" version 1: "#), "\(checked.stdout)")
  }
}
