import InklingArchive
import InklingCommandLine
import InklingPresentation

enum GCCommand {
  static let spec = CommandSpec(
    "gc", abstract: "Reclaim space from unused blobs and thumbnails.",
    discussion: """
      Removes drawings, envelopes, index rows and cached thumbnails that no version needs, \
      then compacts the file. With --repack, every draft's history is stored again as deltas \
      in save order (useful after imports that arrived out of order); restores give the same \
      bytes before and after.
      """,
    options: [
      .flag("repack", help: "Re-encode every drawing as a delta of the version saved before it."),
      .value(
        "level", valueName: "N",
        help: "zstd level for --repack: 1 (fast) to 19 (smallest; the default, \(Archive.repackLevel))."),
    ])

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let level = try parsed.int("--level") ?? Int(Archive.repackLevel)
      guard (1...19).contains(level) else { throw parsed.usageError("--level must be 1 to 19, not \(level)") }
      guard parsed.flag("--repack") || parsed.string("--level") == nil else {
        throw parsed.usageError("--level applies to --repack; add --repack")
      }
      let report = try context.open(.readWrite).collectGarbage(repack: parsed.flag("--repack"), level: Int32(level))
      if context.json {
        context.printJSON([
          "drawingsRemoved": .int(report.drawingsRemoved), "envelopesRemoved": .int(report.envelopesRemoved),
          "strokesRemoved": .int(report.strokesRemoved), "thumbnailsRemoved": .int(report.thumbnailsRemoved),
          "drawingsRepacked": .int(report.drawingsRepacked), "bytesBefore": .int(Int(report.bytesBefore)),
          "bytesAfter": .int(Int(report.bytesAfter)),
        ])
      } else if !context.quiet {
        context.print(
          "Removed \(report.drawingsRemoved) drawings, \(report.envelopesRemoved) envelopes, \(report.strokesRemoved) strokes, "
            + "\(report.thumbnailsRemoved) thumbnails\(report.drawingsRepacked > 0 ? "; repacked \(report.drawingsRepacked) drawings" : ""). "
            + "\(Format.bytes(report.bytesBefore)) → \(Format.bytes(report.bytesAfter)).")
      }
      return ExitStatus.success
    }
  }
}
