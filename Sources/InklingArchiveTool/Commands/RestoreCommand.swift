import InklingArchive
import InklingCommandLine
import InklingFormats
import InklingPresentation

struct RestoreCommand: Command {
  static let version = Common.version("Restore version N.")
  static let at = Option("at", valueName: "DATE", .text, help: "Restore the version that was newest at DATE.")
  static let to = Option("to", valueName: "DIR", .folder, help: "Write into DIR under the original file name.")
  static let output = Option(
    "output", short: "o", valueName: "FILE", .file, help: "Write to FILE; `-` writes to standard output.")
  static let allVersions = Flag(
    "all-versions", help: "Restore every version into the folder (--to, else the current folder).")

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
    arguments: [Common.draft.spec],
    options: [version.spec, at.spec, to.spec, output.spec, allVersions.spec, Common.force.spec],
    exclusive: [
      [version.spec, at.spec, allVersions.spec], [to.spec, output.spec], [allVersions.spec, output.spec],
    ].names)

  let draft: String
  let selector: VersionSelector
  /// Where the file goes; nil for standard output (`-o -`).
  let destination: RestoreDestination?
  let allVersions: Bool
  let force: Bool

  init(_ parsed: ParsedArguments) throws {
    draft = try parsed.value(Common.draft)
    if let at = try parsed.value(Self.at) {
      selector = .at(try DateExpression.parse(at))
    } else {
      selector = try parsed.value(Self.version) ?? .latest
    }
    allVersions = parsed.value(Self.allVersions)
    force = parsed.value(Common.force)
    destination =
      switch try parsed.value(Self.output).map(OutputTarget.init(argument:)) {
      case .standardOutput: nil
      case .file(let path): .file(path)
      case nil: .folder(try parsed.value(Self.to) ?? ".")
      }
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
