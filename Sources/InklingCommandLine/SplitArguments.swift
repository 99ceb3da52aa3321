// Stage 1 of parsing: split argv into tokens that remember where they came from.
//
// Splitting knows nothing about the command tree; it only classifies each word:
//   "--name" / "--name=value"  → long option (with an inline value when there is '=')
//   "-qf"                      → one or more short option letters
//   "--"                       → terminator; every later word is a plain value
//   "-", "-5", "-1d", "word"   → value (a lone dash, and a dash before a digit, are never
//                                 short letters: negative numbers and ages stay values; a
//                                 digit flag such as `-0` is recognised by the matcher)

/// One word of the command line, classified.
package struct ArgumentToken: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    case long(name: String, value: String?)
    case short(letters: [Character])
    case value(String)
    case terminator
  }

  /// Index of the word in the arguments (program name excluded).
  package var index: Int
  package var kind: Kind
  /// The word exactly as typed.
  package var text: String

  package init(index: Int, kind: Kind, text: String) {
    self.index = index
    self.kind = kind
    self.text = text
  }
}

/// Splits command-line words into `ArgumentToken`s.
package enum SplitArguments {
  /// Classifies each word; `arguments` excludes the program name.
  package static func split(_ arguments: [String]) -> [ArgumentToken] {
    var tokens: [ArgumentToken] = []
    var afterTerminator = false
    for (index, word) in arguments.enumerated() {
      let kind: ArgumentToken.Kind
      if afterTerminator {
        kind = .value(word)
      } else if word == "--" {
        kind = .terminator
        afterTerminator = true
      } else if word.hasPrefix("--") {
        let body = word.dropFirst(2)
        if let equals = body.firstIndex(of: "=") {
          kind = .long(
            name: String(body[..<equals]), value: String(body[body.index(after: equals)...]))
        } else {
          kind = .long(name: String(body), value: nil)
        }
      } else if word.hasPrefix("-") && word.count > 1 && !isNegativeNumber(word) {
        kind = .short(letters: Array(word.dropFirst()))
      } else {
        kind = .value(word)
      }
      tokens.append(ArgumentToken(index: index, kind: kind, text: word))
    }
    return tokens
  }

  /// `-5`, `-0.25`, `-1e3`, `-1d`: a value, not short options (a letter never follows).
  static func isNegativeNumber(_ word: String) -> Bool {
    guard word.hasPrefix("-"), let second = word.dropFirst().first else { return false }
    return second.isASCII && (second.isNumber || second == "." && Double(word) != nil)
  }
}
