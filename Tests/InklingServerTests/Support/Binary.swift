import Foundation
import InklingTestSupport

/// The built `inkling-archive`, found beside the test bundle (or in $INKLING_BIN).
enum Binary {
  static var path: String {
    if let folder = ProcessInfo.processInfo.environment["INKLING_BIN"] { return folder + "/inkling-archive" }
    var url = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("inkling-archive").path), url.path != "/" {
      url.deleteLastPathComponent()
    }
    return url.appendingPathComponent("inkling-archive").path
  }

  /// Runs it to the end.
  static func run(_ arguments: [String]) throws -> ChildProcess.Result {
    try ChildProcess.run([path] + arguments, timeout: 120)
  }
}
