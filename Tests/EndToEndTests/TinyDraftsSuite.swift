import Foundation
import InklingTestSupport

/// A suite of the organising commands' tests: a fresh folder with `Drafts/` in it, filled with
/// tiny drafts (one empty drawing each, told apart by their background) and imported through
/// the built binary.
protocol TinyDraftsSuite {
  var runner: BinaryRunner { get }
}

extension TinyDraftsSuite {
  var folder: String { runner.workingDirectory }

  /// Writes `Drafts/path`: an empty drawing over a background of this much red.
  func write(_ path: String, red: Double) throws {
    let url = URL(fileURLWithPath: folder + "/Drafts/" + path)
    try Data(#"{"drawingData":"d3Jk8AEACAA=","color":{"r":\#(red),"g":1,"b":1,"a":1}}"#.utf8).write(to: url)
  }

  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let result = try runner.run(arguments, environment: environment)
    return (result.status, result.stdout, result.stderr)
  }
}
