import Foundation
import InklingTestSupport
import Testing

/// Dates typed without a zone are the system's local time, $TZ as C tools read it, in
/// `list`'s flags and `search`'s terms alike, and agree with the times `list` shows.
@Suite struct LocalTimeCommandTests {
  let runner: BinaryRunner
  var folder: String { runner.workingDirectory }

  static let empty = #"{"drawingData":"d3Jk8AEACAA=","color":{"r":1,"g":1,"b":1,"a":1}}"#

  init() throws {
    runner = try BinaryRunner(fresh: "localtime", making: ["Drafts"])
    // 22:30 UTC on October 5th is 00:30 on the 6th in Berlin (CEST, +02:00); noon is 14:00.
    for name in ["Late-2025-10-05T22:30:00Z", "Noon-2025-10-05T12:00:00Z"] {
      try Data(Self.empty.utf8).write(to: URL(fileURLWithPath: folder + "/Drafts/\(name).inkling"))
    }
  }

  /// The drafts `arguments` (a `list` or `search` with `--paths`) finds with `TZ` set to `zone`.
  func names(_ arguments: [String], zone: String) throws -> [String] {
    let result = try runner.run(arguments + ["--paths"], environment: ["TZ": zone])
    #expect(result.status == 0, "\(arguments) \(zone): \(result.stderr)")
    return result.stdout.split(separator: "\n").map(String.init).sorted()
  }

  @Test func datesAreReadInTheSystemsTimeZone() throws {
    #expect(try runner.run(["--quiet", "import", folder + "/Drafts"]).status == 0)
    let berlin = "Europe/Berlin"
    #expect(try names(["list", "--since", "2025-10-06"], zone: berlin) == ["Late"])
    #expect(try names(["list", "--on", "2025-10-05"], zone: berlin) == ["Noon"])
    #expect(try names(["list", "--until", "2025-10-05"], zone: berlin) == ["Noon"])
    #expect(try names(["search", "saved:2025-10-06"], zone: berlin) == ["Late"])
    #expect(try names(["search", "saved:<2025-10-06"], zone: berlin) == ["Noon"])
    #expect(try names(["search", "saved:2025-10"], zone: berlin) == ["Late", "Noon"])
    // A time without an offset is local too; with one, it is what it says.
    #expect(try names(["search", "saved:2025-10-06T00:30"], zone: berlin) == ["Late"])
    #expect(try names(["search", "saved:>=2025-10-05T14:00:00"], zone: berlin) == ["Late", "Noon"])
    #expect(try names(["search", "saved:>2025-10-05T14:00:00"], zone: berlin) == ["Late"])
    #expect(try names(["search", "saved:2025-10-05T22:30:00Z"], zone: berlin) == ["Late"])
    // The table shows the same local day.
    let table = try runner.run(["list"], environment: ["TZ": berlin])
    #expect(table.stdout.contains("2025-10-06 00:30:00"), "\(table.stdout)")

    // In UTC both were saved on the 5th; a POSIX TZ rule works as well as a zone's name.
    #expect(try names(["list", "--since", "2025-10-06"], zone: "UTC") == [])
    #expect(try names(["list", "--on", "2025-10-05"], zone: "UTC") == ["Late", "Noon"])
    #expect(try names(["search", "saved:2025-10-06"], zone: "CET-1CEST,M3.5.0,M10.5.0/3") == ["Late"])
    // Ten hours behind UTC, noon UTC is still the 5th and 22:30 too.
    #expect(try names(["search", "saved:2025-10-05"], zone: "Pacific/Honolulu") == ["Late", "Noon"])
  }
}
