import Foundation

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

  /// Runs it to the end; its status and stdout.
  static func run(_ arguments: [String]) throws -> (status: Int32, stdout: [UInt8]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, Array(data))
  }
}
