// What every command needs from the global options: the archive, and how to print.

import Foundation
import InklingArchive
import InklingCommandLine

struct CommandContext {
  let parsed: ParsedArguments
  let archivePath: String
  let json: Bool
  let quiet: Bool

  init(_ parsed: ParsedArguments) {
    self.parsed = parsed
    archivePath = parsed.string("--archive") ?? ArchiveLocation.defaultPath()
    json = parsed.flag("--json")
    quiet = parsed.flag("--quiet")
  }

  /// Opens the archive; read-only commands never create or change it.
  func open(_ mode: Archive.Mode) throws(ArchiveError) -> Archive {
    try Archive(path: archivePath, mode: mode)
  }

  func print(_ text: String) { StandardStreams.writeOutput(text + "\n") }
  func printError(_ text: String) { StandardStreams.writeError(text + "\n") }
  func printJSON(_ value: JSONValue) { StandardStreams.writeOutput(JSONWriter().string(value) + "\n") }

  /// Runs a command body, printing an archive error as `Error: …` with its exit status.
  static func run(_ parsed: ParsedArguments, _ body: (CommandContext) throws -> Int32) throws -> Int32 {
    let context = CommandContext(parsed)
    do {
      return try body(context)
    } catch let error as ArchiveError {
      if error.kind == .invalidRequest { throw parsed.usageError(error.message) }
      context.printError("Error: \(error.message)")
      return error.exitStatus
    }
  }
}

/// People-facing formats.
enum Format {
  /// `yyyy-MM-dd HH:mm:ss` in the local time zone ($TZ, else /etc/localtime).
  ///
  /// Through `localtime_r` rather than DateFormatter: creating the first DateFormatter loads
  /// ICU's calendar data, a millisecond of a restore that otherwise takes a few.
  static func date(_ date: Date) -> String {
    var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
    var local = tm()
    guard localtime_r(&seconds, &local) != nil else { return "\(date)" }
    func digits(_ value: Int32, _ width: Int) -> String {
      let text = String(value)
      return String(repeating: "0", count: max(0, width - text.count)) + text
    }
    return digits(local.tm_year + 1900, 4) + "-" + digits(local.tm_mon + 1, 2) + "-" + digits(local.tm_mday, 2)
      + " " + digits(local.tm_hour, 2) + ":" + digits(local.tm_min, 2) + ":" + digits(local.tm_sec, 2)
  }

  static func bytes(_ count: Int64) -> String {
    let units = ["B", "KB", "MB", "GB", "TB"]
    var value = Double(count)
    var unit = 0
    while value >= 1000 && unit < units.count - 1 {
      value /= 1000
      unit += 1
    }
    return unit == 0 ? "\(count) B" : String(format: value < 10 ? "%.1f %@" : "%.0f %@", value, units[unit])
  }

  /// `value` with its thousands grouped by commas: 13364 → "13,364". By hand, not with
  /// NumberFormatter, which sets up ICU on every call (about 0.2 M instructions each).
  static func count(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var grouped = value < 0 ? "-" : ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(",") }
      grouped.append(digit)
    }
    return grouped
  }

  /// A colour as `#rrggbb` (clamped) and, when not opaque, its alpha.
  static func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> String {
    func hex(_ v: Double) -> String { String(format: "%02x", Int((min(max(v, 0), 1) * 255).rounded())) }
    let base = "#" + hex(r) + hex(g) + hex(b)
    return a < 1 ? base + String(format: " a=%.2f", a) : base
  }
}
