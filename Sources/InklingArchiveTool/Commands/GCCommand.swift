import InklingArchive
import InklingCommandLine
import InklingPresentation

struct GCCommand: Command {
  static let name = "gc"

  static let spec = CommandSpec(
    name, abstract: "Reclaim space: remove what no version needs, and repack histories.",
    discussion: """
      Removes drawings, envelopes, index rows and cached thumbnails that no version needs, \
      then compacts the file. With --repack, as `git gc --aggressive`, every draft's history \
      is stored again as reverse deltas at a high compression level: the newest drawing \
      whole, each older one as a delta of the one saved after it, so reading the newest is \
      quickest and history costs little. Restores give the same bytes before and after.
      """
  ).declaring { Self() }

  @Parsed(
    Flag(
      "repack",
      help: "Store every history again as reverse deltas: each draft's newest drawing whole, each older one as a "
        + "delta of the one saved after it."))
  var repack: Bool
  @Parsed(
    Option(
      "level", valueName: "N", .integer(in: 1...19), default: Int(Archive.repackLevel),
      help: "zstd level for --repack: 1 (fast) to 19 (smallest)."))
  var level: Int

  func validate(_ parsed: ParsedArguments) throws {
    if $level.isGiven && !repack { throw parsed.usageError("--level applies to --repack; add --repack") }
  }

  func run(_ context: CommandContext) throws -> Int32 {
    let report = try context.openExisting().collectGarbage(repack: repack, level: Int32(level))
    if context.json {
      context.printJSON(report.json)
    } else if !context.quiet {
      let repacked = report.drawingsRepacked > 0 ? "; repacked \(Plural.count(report.drawingsRepacked, "drawing"))" : ""
      context.print(
        "Removed \(Plural.count(report.drawingsRemoved, "drawing")), \(Plural.count(report.envelopesRemoved, "envelope")), "
          + "\(Plural.count(report.strokesRemoved, "stroke")), \(Plural.count(report.thumbnailsRemoved, "thumbnail"))"
          + "\(repacked). \(Format.bytes(report.bytesBefore)) → \(Format.bytes(report.bytesAfter)).")
    }
    return ExitStatus.success
  }
}
