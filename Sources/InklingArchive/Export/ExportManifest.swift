// `inkling-export.json`: what an export put in its folder, so that a person or a script can
// check the folder later (README "Export"). One JSON object; its `files` array has one entry
// per line, in the order the files were written, then the files of earlier exports into the
// folder that this one did not write again (EarlierExport.swift):
//
//   {"manifest":"inkling-archive export","version":1,"files":[
//   {"draft":"Plan-B","version":2,"saved":"2025-10-05T14:03:12Z","file":"Plan-B-2025-10-05T14:03:12Z.inkling",
//    "kind":"inkling","size":1234,"sha256":"…","renamedFrom":null},
//   …
//   ],"drafts":[…]}
//
// `drafts`, present when a draft exported has stars, tags, notes or labels, keeps them
// (ExportedMarks.swift). Every entry is a `JSONValue` written by the JSON writer, the object
// around them by `JSONObjectStream` (one entry a line), as the command line writes its JSON.
//
// Invariants:
//   1. It lists every file of the export that is in the folder with the bytes it lists:
//      written now, or found there already identical, or listed by the manifest it replaces
//      and still identical. Files left alone (other bytes) and versions that did not verify
//      are not listed.
//   2. It holds nothing that changes between two exports of the same archive (no date of the
//      export), so a re-export finds it identical and leaves it as it is.
//   3. It is streamed to a temporary file beside it, whatever the number of files, and
//      renamed into place only when it differs from the one there, after an fsync.

import InklingFormats
import InklingStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class ExportManifest {
  /// The manifest's name in the export folder.
  static let fileName = "inkling-export.json"

  let path: String
  private let temporary: String
  private var descriptor: Int32
  private var buffer: [UInt8] = []
  private var text = Text()

  /// Starts a manifest for `folder`.
  ///
  /// - Throws: `ArchiveError.fileSystem` when the temporary file cannot be made.
  init(folder: String) throws(ArchiveError) {
    path = OutputPath.joining(folder, Self.fileName)
    temporary = OutputPath.joining(folder, Leftovers.temporaryName(for: Self.fileName, .file))
    descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .fileSystem(path: folder, operation: .create, code: errno) }
    append(text.opening())
  }

  /// A manifest's text, piece by piece, the same in a folder and in a zip.
  struct Text {
    private var stream = JSONObjectStream(elementsOnLines: true)

    /// What a manifest starts with, before its first file.
    mutating func opening() -> String {
      stream.member("manifest", "inkling-archive export") + stream.member("version", 1) + stream.beginArray("files")
    }

    /// One file's line, after the separator from the line before.
    mutating func file(
      draft: String, version: Int, savedMilliseconds: Int64, file: String, kind: String, size: Int64, sha256: [UInt8],
      renamedFrom: String?
    ) -> String {
      stream.element(
        [
          "draft": .string(draft), "version": .int(version), "saved": .string(ExportManifest.date(savedMilliseconds)),
          "file": .string(file), "kind": .string(kind), "size": .int(Int(size)), "sha256": .string(hexString(sha256)),
          "renamedFrom": .optional(renamedFrom.map { .string($0) }),
        ])
    }

    /// What a manifest ends with, after its last file: the organising entries of its drafts
    /// (ExportedMarks.swift), one a line, when any has some.
    mutating func closing(drafts: [JSONValue]) -> String {
      var end = stream.endArray()
      if !drafts.isEmpty {
        end += stream.beginArray("drafts")
        for draft in drafts { end += stream.element(draft) }
        end += stream.endArray()
      }
      return end + stream.end() + "\n"
    }
  }

  deinit {
    if descriptor >= 0 {
      close(descriptor)
      unlink(temporary)
    }
  }

  /// One file of the export (invariant 1).
  func add(
    draft: String, version: Int, savedMilliseconds: Int64, file: String, kind: String, size: Int64, sha256: [UInt8],
    renamedFrom: String?
  ) throws(ArchiveError) {
    append(
      text.file(
        draft: draft, version: version, savedMilliseconds: savedMilliseconds, file: file, kind: kind, size: size,
        sha256: sha256, renamedFrom: renamedFrom))
    if buffer.count >= 1 << 16 { try flush() }
  }

  /// Ends the manifest and puts it in place unless the folder holds the same one already.
  ///
  /// - Returns: whether it was written (false: the one there is identical).
  /// - Throws: `ArchiveError.fileSystem`.
  func finish(drafts: [JSONValue] = []) throws(ArchiveError) -> Bool {
    append(text.closing(drafts: drafts))
    try flush()
    defer {
      close(descriptor)
      descriptor = -1
      unlink(temporary)
    }
    if Self.sameContents(temporary, path) { return false }
    guard fsync(descriptor) == 0 else { throw .fileSystem(path: path, operation: .write, code: errno) }
    // Replacing is right here: the name is the export's own, and the old manifest described
    // an earlier state of the folder.
    guard rename(temporary, path) == 0 else { throw .fileSystem(path: path, operation: .replace, code: errno) }
    return true
  }

  private func append(_ text: String) { buffer.append(contentsOf: text.utf8) }

  private func flush() throws(ArchiveError) {
    var written = 0
    while written < buffer.count {
      let count = buffer.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .fileSystem(path: path, operation: .write, code: errno)
      }
      written += count
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Whether two files hold the same bytes (false when either cannot be read).
  private static func sameContents(_ a: String, _ b: String) -> Bool {
    let first = open(a, O_RDONLY | O_CLOEXEC)
    let second = open(b, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    defer {
      if first >= 0 { close(first) }
      if second >= 0 { close(second) }
    }
    guard first >= 0, second >= 0 else { return false }
    var left = [UInt8](repeating: 0, count: 1 << 16)
    var right = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = readFully(first, &left)
      guard count >= 0, readFully(second, &right) == count else { return false }
      if count == 0 { return true }
      if left.prefix(count) != right.prefix(count) { return false }
    }
  }

  /// Reads until `buffer` is full or the file ends; -1 on an error.
  static func readFully(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Int {
    var filled = 0
    while filled < buffer.count {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
      if count < 0 {
        if errno == EINTR { continue }
        return -1
      }
      if count == 0 { break }
      filled += count
    }
    return filled
  }

  /// ISO 8601 UTC, with milliseconds only when the time has them.
  static func date(_ milliseconds: Int64) -> String {
    let seconds = Archive.iso8601(milliseconds: milliseconds)
    let fraction = ((milliseconds % 1000) + 1000) % 1000
    guard fraction != 0 else { return seconds }
    let digits = String(fraction)
    return String(seconds.dropLast()) + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }
}
