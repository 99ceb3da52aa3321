// Trimming as Foundation's `trimmingCharacters(in:)` does with `.whitespaces` and
// `.whitespacesAndNewlines`, scalar by scalar: the tool links FoundationEssentials only,
// which has neither. Foundation's sets (CoreFoundation's) also hold U+200B ZERO WIDTH SPACE,
// which Unicode does not count as white space; so do these.

extension StringProtocol {
  /// Without spaces (Unicode category Zs), tabs and U+200B at either end.
  package func trimmingSpaces() -> String {
    trimming { $0 == "\t" || $0 == "\u{200B}" || $0.properties.generalCategory == .spaceSeparator }
  }

  /// Without white space and line breaks (Unicode's White_Space property) and U+200B at
  /// either end.
  package func trimmingWhitespace() -> String {
    trimming { $0 == "\u{200B}" || $0.properties.isWhitespace }
  }

  private func trimming(_ isTrimmed: (Unicode.Scalar) -> Bool) -> String {
    let scalars = String(self).unicodeScalars
    guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
    let last = scalars.lastIndex(where: { !isTrimmed($0) })!
    return String(Substring(scalars[first...last]))
  }
}
