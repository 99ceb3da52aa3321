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
    let status = try run(editor, on: path)
    guard status == 0 else {
      throw Failure(sentence: "the editor (\(editor)) exited with status \(status); no note was written")
    }
    guard let bytes = FileManager.default.contents(atPath: path) else {
      throw Failure(sentence: "cannot read back \(path); no note was written")
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Runs `editor` on `path` through /bin/sh and waits for it; its exit status (128 + the
  /// signal for one killed).
  private static func run(_ editor: String, on path: String) throws(Failure) -> Int32 {
    let words = ["/bin/sh", "-c", editor + " \"$1\"", "sh", path]
    let arguments = words.map { strdup($0) } + [nil]
    defer { arguments.forEach { free($0) } }
    // The editor starts as a program from the shell would: no signal blocked, SIGPIPE (which
    // this process ignores) at its default.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGPIPE)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var child = pid_t()
    let code = posix_spawn(&child, "/bin/sh", nil, &attributes, arguments, environ)
    guard code == 0 else { throw Failure(sentence: "cannot start the editor: \(String(cString: strerror(code)))") }
    var status: Int32 = 0
    while waitpid(child, &status, 0) == -1 && errno == EINTR {}
    // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot call.
    let signal = status & 0x7F
    return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
  }
}
