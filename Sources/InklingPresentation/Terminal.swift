// Whether a person is watching, and a progress line for them.
//
// Progress goes to stderr and only when stderr is a terminal: piped or redirected output must
// stay clean and byte-for-byte stable.

import InklingFormats
import InklingTextWidth

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

package enum Terminal {
  /// Whether standard error is a terminal (`isatty(2)`).
  package static var isStandardErrorATerminal: Bool { isatty(2) == 1 }

  /// Whether standard output is a terminal (`isatty(1)`).
  package static var isStandardOutputATerminal: Bool { isatty(1) == 1 }
}

/// A single status line on stderr, redrawn in place: "Importing 1,204 of 30,000 …".
///
///     let progress = ProgressLine(output: StandardStreams.writeError)  // silent unless stderr is a terminal
///     progress.update("Importing \(n) of \(total)")
///     progress.finish()                           // clears the line
package struct ProgressLine: Sendable {
  /// Whether anything is drawn.
  package let isEnabled: Bool
  /// Lines are cut to this many columns so they never wrap (a wrapped line cannot be redrawn).
  package var width: Int
  private let output: @Sendable (String) -> Void

  /// - Parameter output: writes to standard error (the executable's `StandardStreams.writeError`).
  package init(
    isEnabled: Bool = Terminal.isStandardErrorATerminal, width: Int = 79,
    output: @escaping @Sendable (String) -> Void
  ) {
    self.isEnabled = isEnabled
    self.width = width
    self.output = output
  }

  /// Replaces the line with `text` (carriage return, erase line, text).
  package func update(_ text: String) {
    guard isEnabled else { return }
    output("\r\u{1B}[2K" + DisplayWidth.truncate(text, to: width))
  }

  /// Erases the line, leaving the cursor at its start for the summary that follows.
  package func finish() {
    guard isEnabled else { return }
    output("\r\u{1B}[2K")
  }
}
