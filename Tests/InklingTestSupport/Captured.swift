// Text a program or a progress line writes, collected for a test to compare.

import Foundation

/// Collects what a program writes; the lock makes it safe to hand to @Sendable closures.
package final class Captured: @unchecked Sendable {
  private let lock = NSLock()
  private var text = ""

  package init() {}

  package func append(_ more: String) { lock.withLock { text += more } }

  package var value: String { lock.withLock { text } }
}
