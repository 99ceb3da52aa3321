// An option is declared once (`static let x = Option(…)`) and then named twice: in its command's
// spec (`x.spec`, so that the parser knows it, help shows it and completions offer it) and
// where the command reads it (`parsed.value(Self.x)`, or handed to a helper that does). The
// parser stops on reading an option its spec lacks, but an option left out of the spec and
// never read in a test, or listed and never read, would go unnoticed: this test reads the
// command sources and finds both.

import Foundation
import InklingTestSupport
import Testing

@Suite struct OptionDeclarationTests {
  /// One `static let NAME = Option(…)`, `Flag(…)`, `Argument(…)` or `Common.…(…)`.
  struct Declaration: CustomStringConvertible {
    var type: String
    var name: String
    var file: String
    var description: String { "\(type).\(name) (\(file))" }
  }

  static let folder = PackageFolder.path + "/Sources/InklingArchiveTool"

  /// Every Swift file of the executable, by name, with its text.
  static func sources() throws -> [String: String] {
    let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
    var sources: [String: String] = [:]
    for file in files where file.hasSuffix(".swift") {
      sources[file] = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
    }
    return sources
  }

  /// The declarations of `text`, each with the type it is declared in.
  static func declarations(in text: String, file: String) throws -> [Declaration] {
    let type = try Regex(#"^(?:struct|enum|extension|final class) (\w+)"#).anchorsMatchLineEndings()
    let declaration = try Regex(#"^  static let (\w+) = (?:Option|Flag|Argument|Common\.\w+)\("#)
      .anchorsMatchLineEndings()
    var found: [Declaration] = []
    var current = ""
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if let match = try type.firstMatch(in: String(line)) {
        current = String(match.output[1].substring ?? "")
      } else if let match = try declaration.firstMatch(in: String(line)) {
        found.append(Declaration(type: current, name: String(match.output[1].substring ?? ""), file: file))
      }
    }
    return found
  }

  /// How often `pattern` (an ICU regular expression: Swift's Regex has no lookbehind) occurs in `text`.
  static func count(_ pattern: String, in text: String) throws -> Int {
    try NSRegularExpression(pattern: pattern).numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text))
  }

  /// `text` without its lists of mutually exclusive options (`[[a.spec, b.spec]].names`),
  /// which name options without declaring them to the parser.
  static func withoutExclusiveLists(_ text: String) throws -> String {
    try NSRegularExpression(pattern: #"\[\s*\[.*?\]\s*,?\s*\]\.names"#, options: .dotMatchesLineSeparators)
      .stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
  }

  @Test func everyDeclaredOptionIsInASpecAndIsRead() throws {
    let sources = try Self.sources().mapValues(Self.withoutExclusiveLists)
    var declarations: [Declaration] = []
    for (file, text) in sources { declarations += try Self.declarations(in: text, file: file) }
    #expect(declarations.count > 60, "the scan finds the declarations")
    let everything = sources.values.joined(separator: "\n")
    for declaration in declarations {
      let own = sources[declaration.file] ?? ""
      let name = NSRegularExpression.escapedPattern(for: declaration.name)
      let type = NSRegularExpression.escapedPattern(for: declaration.type)
      // In its own file by its bare name or `Self.`; elsewhere by its type's name.
      let listed =
        try Self.count(#"(?<![\w.])(Self\.)?\#(name)\.spec\b"#, in: own)
        + Self.count(#"\b\#(type)\.\#(name)\.spec\b"#, in: everything)
      let read =
        try Self.count(#"\bSelf\.\#(name)\b(?!\.spec)"#, in: own)
        + Self.count(#"\bvalue\(\#(name)\)"#, in: own)
        + Self.count(#"\b\#(type)\.\#(name)\b(?!\.spec)"#, in: everything)
      #expect(listed > 0, "\(declaration) is in no command's spec: the parser would refuse it")
      #expect(read > 0, "\(declaration) is in a spec but never read: it would be accepted and ignored")
    }
  }
}
