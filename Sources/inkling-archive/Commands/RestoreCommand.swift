import InklingArchive
import InklingCommandLine

enum RestoreCommand {
  static let spec = CommandSpec(
    "restore", abstract: "Write a version of a draft back out, byte for byte.",
    discussion: """
      Without --version or --at, the newest version is restored; without --to or -o, it is \
      written into the current folder under its original file name.

      Examples:
        inkling-archive restore Cat --version 3 -o cat-v3.inkling
        inkling-archive restore Cat --at yesterday --to ~/Desktop
      """,
    arguments: [.required("DRAFT", help: "The draft's name.")],
    options: [
      .value("version", valueName: "N", help: "Restore version N."),
      .value("at", valueName: "DATE", help: "Restore the version that was newest at DATE."),
      .value("to", valueName: "DIR", help: "Write into DIR under the original file name."),
      .value("output", short: "o", valueName: "FILE", help: "Write to FILE."),
      .flag("all-versions", help: "Restore every version into the folder (--to, else the current folder)."),
      .flag("force", short: "f", help: "Replace files that already exist."),
    ],
    exclusive: [["--version", "--at", "--all-versions"], ["--to", "--output"], ["--all-versions", "--output"]])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let draft = parsed.argument("DRAFT")!
      let force = parsed.flag("--force")
      var selector = VersionSelector.latest
      if let number = try parsed.int("--version") { selector = .number(number) }
      if let at = parsed.string("--at") { selector = .at(try DateExpression.parse(at)) }
      let archive = try context.open(.readOnly)
      let restored: [RestoredFile]
      if parsed.flag("--all-versions") {
        restored = try archive.restoreAllVersions(draft: draft, to: parsed.string("--to") ?? ".", overwrite: force)
      } else {
        let destination: RestoreDestination =
          if let file = parsed.string("--output") { .file(file) } else { .folder(parsed.string("--to") ?? ".") }
        restored = [try archive.restore(draft: draft, version: selector, to: destination, overwrite: force)]
      }
      if context.json {
        context.printJSON([
          "restored": .array(
            restored.map {
              ["path": .string($0.path), "version": .int($0.version.number), "saved": .date($0.version.saved)]
            })
        ])
      } else if !context.quiet {
        for file in restored {
          context.print("\(file.path)  (version \(file.version.number), saved \(Format.date(file.version.saved)))")
        }
      }
      return ExitStatus.success
    }
  }
}
