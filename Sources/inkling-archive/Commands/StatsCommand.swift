import InklingArchive
import InklingCommandLine
import InklingPresentation

enum StatsCommand {
  static let spec = CommandSpec(
    "stats", abstract: "Show counts and sizes of drafts, versions and strokes.",
    discussion: """
      Sizes by kind of storage: drawings kept whole, drawings stored as deltas of an earlier \
      version, envelopes (the rest of each file), the drawing index and cached thumbnails. \
      The ratio is the archive's size without the thumbnail cache over the bytes imported.
      """)

  static func run(_ parsed: ParsedArguments) throws -> Int32 {
    try CommandContext.run(parsed) { context in
      let stats = try context.open(.readOnly).statistics()
      if context.json {
        context.printJSON([
          "drafts": .int(stats.drafts), "versions": .int(stats.versions), "fileBytes": .int(Int(stats.fileBytes)),
          "drawings": .int(stats.drawings), "drawingBytes": .int(Int(stats.drawingBytes)),
          "stored": [
            "full": .int(Int(stats.fullBytes)), "delta": .int(Int(stats.deltaBytes)),
            "envelope": .int(Int(stats.envelopeBytes)), "index": .int(Int(stats.indexBytes)),
            "thumbnails": .int(Int(stats.thumbnailBytes)),
          ],
          "deltas": .int(stats.deltaCount), "longestDeltaChain": .int(stats.longestDeltaChain),
          "archiveBytes": .int(Int(stats.archiveFileBytes)),
          "ratio": .double((stats.ratio * 10_000).rounded() / 10_000),
        ])
        return ExitStatus.success
      }
      var table = TextTable(columns: [.init(""), .init("", alignment: .right), .init("")], showsHeader: false)
      table.append(["Drafts", Format.count(stats.drafts), ""])
      table.append(["Versions", Format.count(stats.versions), "\(Format.bytes(stats.fileBytes)) of .inkling files"])
      table.append(["Drawings", Format.count(stats.drawings), "\(Format.bytes(stats.drawingBytes)) decoded"])
      table.append(["  stored whole", Format.bytes(stats.fullBytes), ""])
      table.append([
        "  stored as deltas", Format.bytes(stats.deltaBytes),
        "\(Format.count(stats.deltaCount)) deltas, longest chain \(stats.longestDeltaChain)",
      ])
      table.append(["Envelopes", Format.bytes(stats.envelopeBytes), ""])
      table.append(["Drawing index", Format.bytes(stats.indexBytes), ""])
      table.append(["Thumbnail cache", Format.bytes(stats.thumbnailBytes), ""])
      table.append([
        "Archive", Format.bytes(stats.archiveFileBytes),
        String(format: "%.1f%% of the files imported (without thumbnails)", stats.ratio * 100),
      ])
      StandardStreams.writeOutput(table.rendered())
      return ExitStatus.success
    }
  }
}
