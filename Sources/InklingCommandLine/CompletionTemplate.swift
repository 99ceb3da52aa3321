// The fixed text of a completion script: a file of `Completions/`, embedded at build time (the
// program writes its scripts from any directory), into which CompletionScript puts what it
// generates from the command tree. Kept as shell files so that they read, and are linted, as the
// shell code they are: the marks that stand for whole lines are comments, so a file is a script
// its shell parses.
//
// Marks, none of which shell code of ours spells (a name is capitals and underscores):
//   @NAME@                        replaced by the value of NAME, wherever it is;
//   a line that is # @NAME@       replaced by the value's lines (gone when it is empty);
//   # @IF NAME@ … # @END NAME@    lines kept only when the value of NAME is not empty.

/// One shell's fixed text, filled with generated values.
struct CompletionTemplate {
  let text: String

  static let bash = CompletionTemplate(PackageResources.completion_bash)
  static let zsh = CompletionTemplate(PackageResources.completion_zsh)
  static let fish = CompletionTemplate(PackageResources.completion_fish)

  init(_ bytes: [UInt8]) { text = String(decoding: bytes, as: UTF8.self) }

  /// The text with every mark replaced by its value in `values`.
  func filled(_ values: [String: String]) -> String {
    var lines: [Substring] = []
    var skipping: String?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if let name = Self.mark(line, "# @IF ") {
        if Self.value(name, values).isEmpty { skipping = name }
        continue
      }
      if let name = Self.mark(line, "# @END ") {
        if skipping == name { skipping = nil }
        continue
      }
      guard skipping == nil else { continue }
      if let name = Self.mark(line, "# @") {
        let value = Self.value(name, values)
        if !value.isEmpty { lines.append(Substring(value)) }
        continue
      }
      lines.append(Substring(Self.replacingInline(line, values)))
    }
    return lines.joined(separator: "\n")
  }

  /// The NAME of a line that is exactly `<prefix>NAME@`.
  private static func mark(_ line: Substring, _ prefix: String) -> String? {
    guard line.hasPrefix(prefix), line.hasSuffix("@") else { return nil }
    return String(line.dropFirst(prefix.count).dropLast())
  }

  private static func value(_ name: String, _ values: [String: String]) -> String {
    guard let value = values[name] else { preconditionFailure("a completion template names \(name), never given") }
    return value
  }

  /// `line` with each `@NAME@` (NAME of capitals and underscores) replaced by its value.
  private static func replacingInline(_ line: Substring, _ values: [String: String]) -> String {
    var result = ""
    var rest = line[...]
    while let open = rest.firstIndex(of: "@") {
      let after = rest.index(after: open)
      let name = rest[after...].prefix { $0.isUppercase || $0 == "_" }
      let close = name.endIndex
      if !name.isEmpty, close < rest.endIndex, rest[close] == "@" {
        result += rest[..<open] + value(String(name), values)
        rest = rest[rest.index(after: close)...]
      } else {
        result += rest[...open]
        rest = rest[after...]
      }
    }
    return result + rest
  }
}
