// The command lines beside a version, for copying into a terminal: restore its file, and revert
// the draft to it when it is not the newest (with `undelete` first for a draft in the trash,
// which revert refuses). On loopback they name the archive this server reads; a server others
// reach does not show its paths (they would tell a stranger the user's folders and account
// name), so there the archive is the reader's default one. Each word is quoted by
// Escape.shellWord: a draft's name is the file name someone else chose.

import FoundationEssentials
import InklingArchive

enum CommandsView {
  /// The program and, where this server shows it, the archive it reads: how every command
  /// line on the pages starts, so that each works as pasted.
  static func program(archive: String?) -> String {
    "inkling-archive" + (archive.map { " --archive " + Escape.shellWord($0) } ?? "")
  }

  static func section(name draftName: String, deleted: Date?, versionCount: Int, number: Int, archive: String?)
    -> HTML
  {
    let program = program(archive: archive)
    // After `--`, a name that starts with `-` is not read as an option.
    let name = "-- " + Escape.shellWord(draftName)
    var lines: [String] = []
    if deleted != nil { lines.append("\(program) undelete \(name)") }
    lines.append("\(program) restore --version \(number) \(name)")
    let newest = number == versionCount
    if !newest { lines.append("\(program) revert --version \(number) \(name)") }
    let what: HTML =
      newest
      ? "Restore writes this version's file into the current folder, byte for byte."
      : "Restore writes this version's file into the current folder, byte for byte; revert saves it again as the draft's newest version."
    // shellWord leaves no bidi control in a line; each is still isolated like every name shown.
    let code = lines.enumerated().map { index, line -> HTML in index == 0 ? "\(name: line)" : "\n\(name: line)" }
    return """
      <section class="commands" id="commands">
      <h2>From the command line</h2>
      <p>\(what)</p>
      <pre tabindex="0" role="region" aria-label="Command lines"><code>\(code)</code></pre>
      </section>
      """
  }
}
