// The benchmarks' options: `--name value`, the flags a benchmark declares, and operands. A
// benchmark takes each option it knows; whatever is left over is a usage error, so that a
// mistyped option never runs a benchmark with its defaults unnoticed.

import Foundation

/// The arguments of one benchmark, taken option by option.
struct BenchArguments {
  private var options: [String: String] = [:]
  private var flags: Set<String> = []
  private(set) var operands: [String] = []
  let usage: String

  /// Splits `arguments`: a name in `flagNames` is a flag, any other `--name` takes the next
  /// argument (or what follows `=`) as its value.
  init(_ arguments: [String], flagNames: Set<String>, usage: String) {
    self.usage = usage
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if argument.hasPrefix("--") {
        if let equals = argument.firstIndex(of: "=") {
          options[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
        } else if flagNames.contains(argument) {
          flags.insert(argument)
        } else if index + 1 < arguments.count {
          options[argument] = arguments[index + 1]
          index += 1
        } else {
          Self.fail("\(argument) needs a value\n\nusage: \(usage)")
        }
      } else {
        operands.append(argument)
      }
      index += 1
    }
  }

  /// The value of `--name`, if given.
  mutating func string(_ name: String) -> String? {
    options.removeValue(forKey: name)
  }

  /// The whole number given for `--name`, or `default`.
  mutating func int(_ name: String, default value: Int) -> Int {
    guard let text = string(name) else { return value }
    guard let number = Int(text.replacingOccurrences(of: "_", with: "")), number >= 0 else {
      Self.fail("\(name) takes a whole number, not \"\(text)\"\n\nusage: \(usage)")
    }
    return number
  }

  /// The value of a required option.
  mutating func required(_ name: String) -> String {
    guard let value = string(name) else { Self.fail("\(name) is required\n\nusage: \(usage)") }
    return value
  }

  /// Whether `--name` was given as a flag.
  mutating func flag(_ name: String) -> Bool {
    flags.remove(name) != nil
  }

  /// Ends parsing: anything not taken is a usage error.
  func finish(operands allowed: ClosedRange<Int> = 0...0) {
    let unknown = options.keys.sorted() + flags.sorted()
    if !unknown.isEmpty { Self.fail("unknown option \(unknown.joined(separator: ", "))\n\nusage: \(usage)") }
    if !allowed.contains(operands.count) { Self.fail("wrong number of operands\n\nusage: \(usage)") }
  }

  /// Prints a usage error and exits with status 2.
  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("inkling-bench: " + message + "\n").utf8))
    exit(2)
  }
}
