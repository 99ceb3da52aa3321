// `note --edit`: the note written in the person's editor, as `git commit` without -m asks for
// a message: $VISUAL, else $EDITOR, else vi, run through the shell (so that `EDITOR="code
// --wait"` works) on a temporary file, in the foreground of this terminal. What the file holds
// when the editor exits 0 is the note; the file is removed either way.

import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

enum NoteEditor {
  /// Why no note came back from the editor, said after `Error: `.
  struct Failure: Error {
    let sentence: String
  }

  /// The text the person left in the file (possibly empty, which the archive refuses).
  static func edit() throws(Failure) -> String {
    let environment = ProcessInfo.processInfo.environment
    let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    let folder = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    var template = Array((folder + "/inkling-note-XXXXXX.txt").utf8CString)
    let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 4) }
    guard descriptor >= 0 else {
      throw Failure(sentence: "cannot make a temporary file in \(folder): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
    let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { unlink(path) }
    let status: Int32
    do {
      status = try ShellCommand.run(editor + " \"$1\"", ["sh", path])
    } catch {
      throw Failure(sentence: "cannot start the editor: \(error.reason)")
    }
    guard status == 0 else {
      throw Failure(sentence: "the editor (\(editor)) exited with status \(status); no note was written")
    }
    guard let bytes = FileManager.default.contents(atPath: path) else {
      throw Failure(sentence: "cannot read back \(path); no note was written")
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
