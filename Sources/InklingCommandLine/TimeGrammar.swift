// TIME, the one grammar of every option that takes a length of time (`watch --settle`,
// `timelapse --duration` and `--hold`), so that what one option accepts every other does.

extension ValueKind where Value == Double {
  /// The forms of TIME, for the help and every error about one.
  package static let timeForms = "like 45s, 1m30s, 1.5h or 500ms (units h, min or m, s, ms; a number alone is seconds)"

  /// TIME: `45`, `45s`, `1.5h`, `1m30s`, `2min`, `500ms`, in seconds (see `parseSeconds`).
  package static let time = ValueKind(expected: "a time " + timeForms, format: formatSeconds, parse: parseSeconds)

  /// TIME from 0 up to `maximum` seconds.
  package static func time(atMost maximum: Double) -> ValueKind {
    Self.time.where("a time from 0 to \(formatSeconds(maximum)), " + timeForms) { $0 >= 0 && $0 <= maximum }
  }

  /// The units of TIME, largest first, in seconds. `m` is minutes, as `min` is: no option takes
  /// months, so the `m` the date grammar refuses as ambiguous is not here.
  private static let timeUnits: [String: Double] = ["h": 3600, "min": 60, "m": 60, "s": 1, "ms": 0.001]

  /// TIME in seconds: a plain decimal number (`1`, `1.5`) and a unit of `timeUnits`, or
  /// several, each unit smaller than the one before (`1h30m`, `2s500ms`); a number alone is
  /// seconds. Nothing else: `Double(_:)` alone would read `0x10` and `1e3`, a number after a
  /// unit (`1m30`) could be seconds or the minutes of `1h30`, and nil is the refusal.
  private static func parseSeconds(_ text: String) -> Double? {
    let characters = Array(text.lowercased())
    func isDigit(_ character: Character) -> Bool { ("0"..."9").contains(character) }
    var index = 0
    var total = 0.0
    var previousUnit = Double.infinity
    var parts = 0
    while index < characters.count {
      let start = index
      while index < characters.count && isDigit(characters[index]) { index += 1 }
      guard index > start else { return nil }
      if index < characters.count && characters[index] == "." {
        index += 1
        let fraction = index
        while index < characters.count && isDigit(characters[index]) { index += 1 }
        guard index > fraction else { return nil }
      }
      guard let number = Double(String(characters[start..<index])) else { return nil }
      let unitStart = index
      while index < characters.count && ("a"..."z").contains(characters[index]) { index += 1 }
      guard index > unitStart else {
        // A number alone is seconds; after a unit it is refused (see above).
        return parts == 0 && index == characters.count && number.isFinite ? number : nil
      }
      guard let unit = timeUnits[String(characters[unitStart..<index])], unit < previousUnit else { return nil }
      total += number * unit
      previousUnit = unit
      parts += 1
    }
    return parts > 0 && total.isFinite ? total : nil
  }

  /// `2s`, `1.5s` or `250ms`: what help shows as a default, read back by `parseSeconds`.
  private static func formatSeconds(_ seconds: Double) -> String {
    if seconds > 0 && seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
    if seconds == seconds.rounded() && abs(seconds) < 1e15 { return "\(Int(seconds))s" }
    return "\(seconds)s"
  }
}
