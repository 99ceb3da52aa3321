import Foundation
import InklingTestSupport

/// The built `inkling-archive`.
enum Binary {
  static var path: String { BuiltProducts.inklingArchive }

  /// Runs it to the end.
  static func run(_ arguments: [String]) throws -> ChildProcess.Result {
    try ChildProcess.run([path] + arguments, timeout: 120)
  }
}
