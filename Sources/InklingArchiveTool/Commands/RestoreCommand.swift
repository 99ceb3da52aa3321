import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct RestoreCommand: Command {
  static let name = "restore"
  static let folderAdvice = "give a file name with -o, or write into the folder with --to"

  static let spec = CommandSpec(
    name, abstract: "Write a version of a draft back out, byte for byte.",
    discussion: """
      Without --version or --at, the newest version is restored; without --to or -o, it is \
      written into the current folder under its original file name. With --all-versions, \
      versions whose file names are the same (or differ only in case) are written as \
      "NAME (2).inkling", "NAME (3).inkling", … in the order they were archived, so that \
      every version lands; importing such a file again finds the same draft and save time. \
      From a damaged archive, --all-versions writes every version that verifies, names each \
      one that does not, and the exit status is 1; restoring one damaged version is an error. \
      A file already in the folder with a version's exact bytes is left as it is and counted, \
      so running the same restore again finishes one that was stopped.

      Examples:
        inkling-archive restore Cat --version 3 -o cat-v3.inkling
        inkling-archive restore Cat --at yesterday --to ~/Desktop
        inkling-archive restore Cat -o - | jq .color
      """,
    exclusive: [["version", "at", "all-versions"], ["to", "output"], ["all-versions", "output"]]
  ).declaring { Self() }

  @Parsed(Common.draft) var draft: String
  @Parsed(Common.version("Restore version N.")) var version: VersionSelector?
  @Parsed(Option("at", valueName: "DATE", .text, help: "Restore the version that was newest at DATE.")) var at: String?
  @Parsed(Option("to", valueName: "DIR", .folder, help: "Write into DIR under the original file name.")) var to: String?
  @Parsed(
    Option(
      "output", short: "o", valueName: "FILE", .file, help: "Write to FILE; `-` writes to standard output."))
  var output: String?
  @Parsed(
    Flag(
      "all-versions", help: "Restore every version into the folder (--to, else the current folder)."))
  var allVersions: Bool
  @Parsed(Common.force) var force: Bool

  private(set) var selector = VersionSelector.latest

  /// Where the file goes; nil for standard output (`-o -`).
  var destination: RestoreDestination? {
    switch output.map(OutputTarget.init(argument:)) {
    case .standardOutput: nil
    case .file(let path): .file(path)
    case nil: .folder(to ?? ".")
    }
  }

  mutating func validate(_ parsed: ParsedArguments) throws {
    selector = try at.map { .at(try DateExpression.parse($0)) } ?? version ?? .latest
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let archive = try context.open(.readOnly)
    let restored: [RestoredFile]
    var damaged: [AllVersionsRestore.DamagedVersion] = []
    var alreadyThere: [RestoredFile] = []
    if allVersions, case .folder(let folder) = destination {
      let result = try archive.restoreAllVersions(draft: draft, to: folder, overwrite: force)
      restored = result.restored
      alreadyThere = result.alreadyThere
      damaged = result.damaged
    } else if let destination {
      restored = [try archive.restore(draft: draft, version: selector, to: destination, overwrite: force)]
    } else {
      let (bytes, version) = try archive.fileContents(draft: draft, version: selector)
      try OutputTarget.writeToStandardOutput(bytes)
      restored = [RestoredFile(path: OutputTarget.standardOutput.path, version: version)]
    }
    let target: OutputTarget =
      switch destination {
      case nil: .standardOutput
      case .file(let path): .file(path)
      case .folder(let folder): .file(folder)
      }
    for version in damaged {
      context.printError("Error: " + version.error.sentence(folderAdvice: Self.folderAdvice))
    }
    if context.json {
      context.printReport(
        JSONWriter().string([
          "restored": .array(restored.map(\.json)), "damaged": .array(damaged.map(\.json)),
          "alreadyThere": .array(alreadyThere.map(\.json)),
        ]),
        dataTo: target)
    } else if !context.quiet {
      for file in restored {
        let renamed = file.renamedFrom.map { Self.renamed(from: $0, file.nameChange) } ?? ""
        // On standard output the bytes are the output; the line on stderr says what they were.
        let place = target == .standardOutput ? "\(Quoted.text(draft)) to standard output" : Quoted.text(file.path)
        context.printReport(
          "\(place)  (version \(file.version.number), saved \(Format.date(file.version.saved))\(renamed))",
          dataTo: target)
      }
      if !alreadyThere.isEmpty {
        context.printReport(
          "\(Plural.count(alreadyThere.count, "version")) already in the folder, byte for byte: left as "
            + (alreadyThere.count == 1 ? "it was." : "they were."), dataTo: target)
      }
    }
    // As export's salvage: what verified is written, and the status says some was not.
    return damaged.isEmpty ? ExitStatus.success : ExitStatus.someInputsRejected
  }

  /// Why a file has another name than its original.
  static func renamed(from original: String, _ change: FileNameChange?) -> String {
    switch change {
    case .sharedName, nil: "; renamed: \(Quoted.text(original)) is another version's file name"
    case .unsafeName: "; renamed from \(Quoted.text(original)): not a safe file name"
    case .draftRenamed: "; renamed from \(Quoted.text(original)): the draft has another name now"
    }
  }
}
