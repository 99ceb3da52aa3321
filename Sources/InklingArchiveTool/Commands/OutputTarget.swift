// Where a command's `-o` sends what it writes: a file, which the library writes safely, or
// standard output for `-`, which only the command line writes to (the library never writes to
// the process's streams): the bytes and nothing else go there, and the report goes to
// standard error (CommandContext.printReport), as it does for a path that names standard
// output (`-o /dev/stdout`).

import InklingArchive
import InklingCommandLine

/// Where a file's bytes go.
enum OutputTarget: Sendable, Equatable {
  /// A file at this path.
  case file(String)
  /// The process's standard output.
  case standardOutput

  /// `-` is standard output, as for cat, tar and curl; anything else a path.
  init(argument: String) {
    self = argument == "-" ? .standardOutput : .file(argument)
  }

  /// The path, or `-` for standard output.
  var path: String {
    switch self {
    case .file(let path): path
    case .standardOutput: "-"
    }
  }

  /// Whether the bytes went to standard output: `-`, or a path that names it.
  var isStandardOutput: Bool {
    switch self {
    case .file(let path): StandardStreams.isStandardOutput(path: path)
    case .standardOutput: true
    }
  }

  /// Writes `bytes` to standard output, or has `writeFile` write them at the path.
  ///
  /// - Throws: `ArchiveError.fileSystem` when standard output cannot be written; what
  ///   `writeFile` throws.
  func write(_ bytes: [UInt8], file writeFile: (String) throws(ArchiveError) -> Void) throws(ArchiveError) {
    switch self {
    case .file(let path): try writeFile(path)
    case .standardOutput: try Self.writeToStandardOutput(bytes)
    }
  }

  /// Writes every byte to standard output.
  ///
  /// - Throws: `ArchiveError.fileSystem` when standard output cannot be written.
  static func writeToStandardOutput(_ bytes: [UInt8]) throws(ArchiveError) {
    if let code = StandardStreams.writeOutput(bytes) {
      throw .fileSystem(path: "standard output", operation: .write, code: code)
    }
  }
}
