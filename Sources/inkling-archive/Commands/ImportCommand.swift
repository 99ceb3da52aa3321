import Foundation
import InklingArchive
import InklingCommandLine
import InklingPresentation

struct ImportCommand: Command {
  static let paths = Argument("PATH", .file, repeating: (), help: "A .inkling file or a folder of them.")
  static let maximumFileSize = Option(
    "max-file-size", valueName: "SIZE", .size, default: ImportOptions().maximumFileSize,
    help: "Refuse draft files larger than SIZE (bytes, or with K, M, G).")

  static let spec = CommandSpec(
    "import", abstract: "Add .inkling files and folders of drafts to the archive.",
    discussion: """
      Folders are searched recursively. Importing the same file twice adds nothing. Each file \
      is reported; files that cannot be read are reported and skipped, never half-stored. \
      Progress is shown while standard error is a terminal.

      Examples:
        inkling-archive import ~/Drafts
        inkling-archive import "Cat.inkling" "Dog 2.inkling"
      """,
    arguments: [paths.spec], options: [maximumFileSize.spec])

  let paths: [String]
  let maximumFileSize: Int64

  init(_ parsed: ParsedArguments) throws {
    paths = try parsed.value(Self.paths)
    maximumFileSize = try parsed.value(Self.maximumFileSize)
  }

  func run(_ context: CommandContext) throws -> Int32 {
    var options = ImportOptions()
    options.maximumFileSize = maximumFileSize
    let progress = context.progressLine()
    let quiet = context.quiet
    options.onEvent = { event in
      switch event {
      case .rejected(let path, let reason):
        progress.finish()
        StandardStreams.writeError("\(Quoted.text(path)): \(reason)\n")
      case .note(let path, let message):
        guard !quiet else { return }
        progress.finish()
        StandardStreams.writeError("\(Quoted.text(path)): note: \(message)\n")
      case .progress(let state):
        // Not even described when nobody sees it: events come many times a second.
        if progress.isEnabled { progress.update(Self.describe(state)) }
      }
    }
    let summary = try context.open(.readWrite).importFiles(at: paths, options: options)
    progress.finish()
    if context.json {
      context.printJSON(summary.json)
    } else if !context.quiet {
      context.print(
        "Imported \(Plural.count(summary.versionsImported, "version")) "
          + "(\(Plural.count(summary.draftsCreated, "new draft"))); "
          + "\(Format.count(summary.alreadyArchived)) already archived, \(Format.count(summary.ignored)) ignored, "
          + "\(Format.count(summary.rejected)) rejected. "
          + "\(Format.bytes(summary.bytesRead)) in \(Format.seconds(summary.seconds)).")
    }
    return summary.rejected > 0 ? ExitStatus.someInputsRejected : ExitStatus.success
  }

  static func describe(_ state: ImportProgress) -> String {
    var text = "Importing: \(Format.count(state.filesDone)) of \(Format.count(state.filesFound))"
    text += state.walkFinished ? " files" : "+ files"
    text += ", " + Format.decimal(state.bytesPerSecond / 1_000_000, digits: 1) + " MB/s"
    if let left = state.secondsLeft { text += ", \(Int(left.rounded(.up))) s left" }
    return text
  }
}
