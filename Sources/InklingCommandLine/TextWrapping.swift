// Word wrapping by display columns, for help text.

import InklingTextWidth

package enum TextWrapping {
  /// Breaks `text` into lines of at most `width` columns at spaces; existing line breaks are
  /// kept and a word longer than `width` gets a line of its own.
  package static func wrap(_ text: String, width: Int) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { paragraph in
      wrapParagraph(String(paragraph), width: max(1, width))
    }
  }

  private static func wrapParagraph(_ paragraph: String, width: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    var lineWidth = 0
    for word in paragraph.split(separator: " ") {
      let wordWidth = DisplayWidth.of(String(word))
      if lineWidth > 0 && lineWidth + 1 + wordWidth > width {
        lines.append(line)
        line = ""
        lineWidth = 0
      }
      if lineWidth > 0 {
        line += " "
        lineWidth += 1
      }
      line += word
      lineWidth += wordWidth
    }
    lines.append(line)
    return lines
  }

  /// Joins `words` with spaces into lines of at most `width` columns; lines after the first
  /// start with `indent` spaces. Used for usage lines, whose elements must not be split.
  static func fill(_ words: [String], width: Int, firstLinePrefix: String, indent: Int) -> [String] {
    var lines: [String] = []
    var line = firstLinePrefix
    var lineWidth = DisplayWidth.of(firstLinePrefix)
    var lineHasWord = false
    for word in words {
      let wordWidth = DisplayWidth.of(word)
      if lineHasWord && lineWidth + 1 + wordWidth > width {
        lines.append(line)
        line = String(repeating: " ", count: indent)
        lineWidth = indent
        lineHasWord = false
      }
      if lineHasWord {
        line += " "
        lineWidth += 1
      }
      line += word
      lineWidth += wordWidth
      lineHasWord = true
    }
    lines.append(line)
    return lines
  }
}
