// A version as `history --json` prints it (README, "JSON output").

import InklingArchive
import InklingCommandLine

package enum VersionJSON {
  package static func object(_ version: VersionInfo) -> JSONValue {
    [
      "number": .int(version.number), "saved": .date(version.saved),
      "savedFrom": .string(version.savedFromFileName ? "fileName" : "modificationTime"),
      "imported": .date(version.imported), "fileName": .string(version.fileName),
      "fileSize": .int(Int(version.fileSize)), "fileSHA256": .string(version.fileSHA256),
      "background": ColorJSON.object(version.background),
      "drawingSHA256": .string(version.drawingSHA256), "drawingSize": .int(Int(version.drawingSize)),
      "strokes": .optional(version.strokeCount.map { .int($0) }),
      "sameDrawingAs": .optional(version.sameDrawingAs.map { .int($0) }),
    ]
  }
}
