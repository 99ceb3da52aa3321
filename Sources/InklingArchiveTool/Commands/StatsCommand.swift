import InklingArchive
import InklingCommandLine
import InklingPresentation

struct StatsCommand: Command {
  static let name = "stats"
  static let spec = CommandSpec(
    name, abstract: "Show counts and sizes of drafts, versions and strokes.",
    discussion: """
      Sizes by kind of storage: drawings kept whole, drawings stored as deltas of an earlier \
      version, envelopes (the rest of each file), the drawing index and cached thumbnails. \
      The ratio is the archive's size without the thumbnail cache over the bytes imported.
      """)

  func run(_ context: CommandContext) throws -> Int32 {
    let stats = try context.open(.readOnly).statistics()
    if context.json {
      context.printJSON(stats.json)
      return ExitStatus.success
    }
    var table = TextTable(columns: [.init(""), .init("", alignment: .right), .init("")], showsHeader: false)
    table.append(["Drafts", Format.count(stats.drafts), ""])
    table.append(["Versions", Format.count(stats.versions), "\(Format.bytes(stats.fileBytes)) of .inkling files"])
    table.append(["Drawings", Format.count(stats.drawings), "\(Format.bytes(stats.drawingBytes)) decoded"])
    table.append(["  stored whole", Format.bytes(stats.fullBytes), ""])
    table.append([
      "  stored as deltas", Format.bytes(stats.deltaBytes),
      "\(Plural.count(stats.deltaCount, "delta")), longest chain \(stats.longestDeltaChain)",
    ])
    table.append(["Envelopes", Format.bytes(stats.envelopeBytes), ""])
    table.append(["Drawing index", Format.bytes(stats.indexBytes), ""])
    table.append(["Thumbnail cache", Format.bytes(stats.thumbnailBytes), ""])
    table.append([
      "Archive", Format.bytes(stats.archiveFileBytes),
      Format.percent(stats.ratio) + " of the files imported (without thumbnails)",
    ])
    context.printRaw(table.rendered())
    return ExitStatus.success
  }
}
