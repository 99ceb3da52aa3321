import Foundation

/// The result of running the built `inkling-archive`.
struct RunResult {
  let status: Int32
  let stdout: String
  let stderr: String
  /// Standard output as bytes, for commands that write a file there (`-o -`).
  var stdoutBytes: [UInt8] = []
}

/// Runs the built binaries (found beside the test bundle) in a temporary folder.
struct BinaryRunner {
  let archive: String
  let workingDirectory: String

  static var binFolder: String {
    if let folder = ProcessInfo.processInfo.environment["INKLING_BIN"] { return folder }
    // `swift build --build-tests` puts the products beside the test bundle.
    var url = Bundle.main.bundleURL
    while !FileManager.default.fileExists(atPath: url.appendingPathComponent("inkling-archive").path),
      url.path != "/"
    {
      url.deleteLastPathComponent()
    }
    return url.path
  }

  @discardableResult
  func run(_ arguments: [String], binary: String = "inkling-archive", environment: [String: String] = [:]) throws
    -> RunResult
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.binFolder + "/" + binary)
    process.arguments = binary == "inkling-archive" ? ["--archive", archive] + arguments : arguments
    process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory)
    var env = ProcessInfo.processInfo.environment
    env["INKLING_ARCHIVE"] = nil
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let out = Pipe()
    // stderr goes to a file, so that a full pipe can never block the process while
    // stdout is being read.
    let errPath = workingDirectory + "/.stderr-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: errPath) }
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try err.close()
    let errData = FileManager.default.contents(atPath: errPath) ?? Data()
    return RunResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self), stdoutBytes: Array(outData))
  }
}
