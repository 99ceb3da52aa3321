// `backup DEST`: a consistent, checked copy of the archive, safe to make while imports run.

import FoundationEssentials
import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct BackupCommand: Command {
  static let name = "backup"
  static let folderAdvice = "give the backup a file name"

  static let spec = CommandSpec(
    name, abstract: "Copy the archive safely, even while it is in use.",
    discussion: """
      The copy is one snapshot of the archive, taken with SQLite's online backup API while \
      other commands keep working; it is checked (`check`, or `check --full` with --full) \
      before it is put in place, so DEST is never a half-written or damaged copy. If DEST is \
      a folder, the copy goes into it under the archive's file name. With DEST `-` the copy \
      is made and checked in $TMPDIR (else /tmp), then written to standard output, and what \
      was copied is said on standard error.

      To restore from a backup, use the copy directly with --archive, or stop every \
      inkling-archive command, remove the old archive together with its -wal and -shm \
      files, and copy the backup into its place.

      Examples:
        inkling-archive backup /Volumes/Backup/drafts.sqlite
        inkling-archive backup - | zstd > drafts.sqlite.zst
        inkling-archive --archive /Volumes/Backup/drafts.sqlite list
      """
  ).declaring { Self() }

  @Parsed(
    Argument(
      "DEST", .file, help: "The file (or folder) to write the copy to; - for standard output."))
  var destination: String
  @Parsed(Common.force) var force: Bool
  @Parsed(Flag("full", help: "Check the copy with check --full (reads all of it).")) var full: Bool

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    let progress = context.progressLine()
    let onProgress = { (state: BackupProgress) in
      switch state {
      case .copying(let pages, let total):
        progress.update("Copying: \(total > 0 ? pages * 100 / total : 0)%")
      case .checking(let check):
        progress.update("Checking the copy: \(check.step)")
      }
    }
    let target = OutputTarget(argument: destination)
    let report =
      switch target {
      case .standardOutput:
        try archive.backup(reportedAs: "-", fullCheck: full, onProgress: onProgress) {
          (piece) throws(ArchiveError) in try OutputTarget.writeToStandardOutput(piece)
        }
      case .file(let path):
        try archive.backup(to: path, overwrite: force, fullCheck: full, onProgress: onProgress)
      }
    progress.finish()
    let place = target == .standardOutput ? "standard output" : Quoted.text(report.path)
    context.report(
      report.json,
      "Backed up \(Plural.count(report.check.counts.versions, "version")) of "
        + "\(Plural.count(report.check.counts.drafts, "draft")) to \(place) "
        + "(\(Format.bytes(report.bytes)), checked\(report.check.full ? " in full" : "")) "
        + "in \(Format.seconds(report.seconds)).",
      dataTo: target == .standardOutput ? target : .file(report.path))
    return ExitStatus.success
  }
}
