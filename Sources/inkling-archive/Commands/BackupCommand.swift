// `backup DEST`: a consistent, checked copy of the archive, safe to make while imports run.

import Foundation
import InklingArchive
import InklingCommandLine
import InklingPresentation

enum BackupCommand {
  static let spec = CommandSpec(
    "backup", abstract: "Copy the archive safely, even while it is in use.",
    discussion: """
      The copy is one snapshot of the archive, taken with SQLite's online backup API while \
      other commands keep working; it is checked (`check`, or `check --full` with --full) \
      before it is put in place, so DEST is never a half-written or damaged copy. If DEST is \
      a folder, the copy goes into it under the archive's file name.

      To restore from a backup, use the copy directly with --archive, or stop every \
      inkling-archive command, remove the old archive together with its -wal and -shm \
      files, and copy the backup into its place.

      Examples:
        inkling-archive backup /Volumes/Backup/drafts.sqlite
        inkling-archive --archive /Volumes/Backup/drafts.sqlite list
      """,
    arguments: [.required("DEST", help: "The file (or folder) to write the copy to.")],
    options: [
      .flag("force", short: "f", help: "Replace DEST if it exists."),
      .flag("full", help: "Check the copy with check --full (reads all of it)."),
    ])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let archive = try context.open(.readOnly)
      let progress = ProgressLine(isEnabled: Terminal.isStandardErrorATerminal && !context.quiet)
      let report = try archive.backup(
        to: parsed.argument("DEST")!, overwrite: parsed.flag("--force"), fullCheck: parsed.flag("--full")
      ) { state in
        switch state {
        case .copying(let pages, let total):
          progress.update("Copying: \(total > 0 ? pages * 100 / total : 0)%")
        case .checking(let check):
          progress.update("Checking the copy: \(check.step)")
        }
      }
      progress.finish()
      if context.json {
        context.printJSON([
          "path": .string(report.path), "bytes": .int(Int(report.bytes)), "checked": .bool(true),
          "fullCheck": .bool(report.check.full), "versions": .int(report.check.counts.versions),
          "seconds": .double((report.seconds * 1000).rounded() / 1000),
        ])
      } else if !context.quiet {
        context.print(
          "Backed up \(Format.count(report.check.counts.versions)) versions of \(Format.count(report.check.counts.drafts)) "
            + "drafts to \(report.path) (\(Format.bytes(report.bytes)), checked\(report.check.full ? " in full" : "")) "
            + "in \(String(format: "%.2f", report.seconds)) s.")
      }
      return ExitStatus.success
    }
  }
}
