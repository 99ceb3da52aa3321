// The ranges the numbers of a version read from another archive must lie in before merge
// takes it. An archive someone hands over is input: its rows may hold any integer, and a
// value no import could have recorded would reach date and size arithmetic that traps
// (a save time of Int64.max in milliseconds, a file size that overflows a sum).

import InklingStore

enum MergedValues {
  static let milliseconds = Archive.millisecondsRange

  /// Why `row` cannot be merged as it is, or nil when every number in it is one an import of
  /// a file of at most `maximumFileSize` bytes could have recorded.
  static func problem(_ row: VersionRow, maximumFileSize: Int64) -> String? {
    if !milliseconds.contains(row.savedMilliseconds) {
      return "its save time \(row.savedMilliseconds) ms is outside the years 0000 to 9999"
    }
    if !milliseconds.contains(row.importedMilliseconds) {
      return "its import time \(row.importedMilliseconds) ms is outside the years 0000 to 9999"
    }
    if row.fileSize < 0 || row.fileSize > maximumFileSize {
      return "its file size \(row.fileSize) bytes is outside the 0…\(maximumFileSize) an import accepts"
    }
    if row.fileSHA256.count != 32 {
      return "its file's SHA-256 is \(row.fileSHA256.count) bytes long, not 32"
    }
    let background = row.background
    if ![background.red, background.green, background.blue, background.alpha].allSatisfy(\.isFinite) {
      return "its background colour is not a finite colour"
    }
    return nil
  }
}
