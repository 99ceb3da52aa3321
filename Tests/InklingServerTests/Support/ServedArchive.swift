import Foundation
import InklingArchive
import InklingCorpus
import InklingTestSupport

@testable import InklingServer

/// An archive in a fresh temporary folder, imported from a generated Drafts folder plus drafts
/// with hostile names, and a server on a free loopback port.
final class ServedArchive: @unchecked Sendable {
  // @unchecked: every property is set in init and only read afterwards.
  private let temporary: TemporaryFolder
  var folder: String { temporary.path }
  let draftsFolder: String
  let archivePath: String
  let server: ArchiveServer
  var port: UInt16 { server.port }

  /// Names a person could type in the app (which writes `/` as `-`), each meant to break
  /// out of HTML, an attribute, a URL or a path if it were not escaped.
  static let hostileNames = [
    "<script>alert(1)<-script>", "\"><img src=x onerror=alert(1)>", "..", ".", "a&b=c?d#e %2F+x",
    "Café 猫 🎨", "'single' & \"double\"",
  ]

  static let spec = CorpusSpec(drafts: 24, versionsPerDraft: 1...5, seed: 19)

  init(
    spec: CorpusSpec = ServedArchive.spec, token: String? = nil, host: String = "127.0.0.1", pageSize: Int = 10,
    importNow: Bool = true, limits: ServerLimits = ServerLimits(), threads: Int = 2, hostile: Bool = true
  ) throws {
    temporary = try TemporaryFolder("serve")
    draftsFolder = temporary.path("Drafts")
    archivePath = temporary.path("archive.sqlite")
    try writeCorpus(spec, to: URL(fileURLWithPath: draftsFolder))
    if hostile { try Self.writeHostileDrafts(into: draftsFolder) }
    let archive = try Archive(path: archivePath)
    if importNow { _ = try archive.importFiles(at: [draftsFolder]) }
    var configuration = ServerConfiguration(
      archivePath: archivePath, host: host, port: 0, token: token, threads: threads, pageSize: pageSize)
    configuration.limits = limits
    server = try ArchiveServer(configuration)
  }

  deinit { server.stop(grace: 0) }

  /// Two saves of each hostile name, made of the bytes of a generated file (the name is only
  /// in the file name).
  static func writeHostileDrafts(into folder: String) throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".inkling") }.sorted()
    try FileManager.default.createDirectory(atPath: folder + "/hostile", withIntermediateDirectories: true)
    for (index, name) in hostileNames.enumerated() {
      for save in 0..<2 {
        let source = folder + "/" + files[(index * 2 + save) % files.count]
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        let stamp = String(format: "2025-11-%02dT1%d:00:00Z", index + 1, save)
        try bytes.write(to: URL(fileURLWithPath: folder + "/hostile/" + name + "-" + stamp + ".inkling"))
      }
    }
  }

  /// GET `target` from the server.
  func get(_ target: String, headers: [(String, String)] = [], method: String = "GET") throws -> RawResponse {
    try HTTPClient.get(port, target, method: method, headers: headers)
  }

  /// A read-only connection to the archive, for what the pages should show.
  func archive() throws -> Archive { try Archive(path: archivePath, mode: .readOnly) }

  /// The file on disk that was imported as `fileName`.
  func importedFile(_ fileName: String) throws -> [UInt8] {
    for folder in [draftsFolder, draftsFolder + "/hostile"] {
      let path = folder + "/" + fileName
      if FileManager.default.fileExists(atPath: path) { return Array(try Data(contentsOf: URL(fileURLWithPath: path))) }
    }
    throw ClientError(description: "no imported file \(fileName)")
  }
}

/// One served archive for the tests that only read, made on first use.
enum SharedArchive {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var made: ServedArchive?

  static func get() throws -> ServedArchive {
    lock.lock()
    defer { lock.unlock() }
    if let made { return made }
    let archive = try ServedArchive()
    made = archive
    TemporaryFolder.removeAtExit(archive.folder)
    return archive
  }
}

/// Percent-encodes a query value as a browser's form would (space as %20 here: both are read).
func encoded(_ text: String) -> String {
  var allowed = CharacterSet.alphanumerics
  allowed.insert(charactersIn: "-._~")
  return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}
