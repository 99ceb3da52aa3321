// Stage 3 of parsing: positional arguments, required options, exclusive options.
//
// Runs only once matching succeeded and neither help nor version was asked for; produces the
// ParsedArguments a command reads.

enum Validation {
  static func validate(
    chain: [CommandSpec], values: [[String: [String]]], positionals: [String]
  ) throws(UsageError) -> ParsedArguments {
    let path = chain.dropFirst().map(\.name)
    let leaf = chain[chain.count - 1]
    let arguments = try assign(positionals, to: leaf.arguments, at: path)

    for (depth, command) in chain.enumerated() {
      for option in command.options where option.isRequired && values[depth][option.long] == nil {
        throw .missingOption(option, at: path)
      }
    }

    // Scopes deepest first, the order in which names resolve.
    let scopes = chain.indices.reversed().map { depth in
      ParsedArguments.Scope(
        options: chain[depth].effectiveOptions(isRoot: depth == 0), values: values[depth])
    }
    let parsed = ParsedArguments(
      commandPath: path, scopes: scopes, positionals: positionals, arguments: arguments,
      argumentSpecs: leaf.arguments)

    for command in chain {
      for group in command.exclusiveGroups {
        let given = group.filter { parsed.isSet($0) }
        if given.count >= 2 { throw .exclusive(given[0], given[1], at: path) }
      }
    }
    return parsed
  }

  /// Gives each argument its values: required ones first claim one each, optional ones take a
  /// value only when enough remain, the last may take the rest.
  static func assign(
    _ positionals: [String], to specs: [ArgumentSpec], at path: [String]
  ) throws(UsageError) -> [String: [String]] {
    var remaining = positionals[...]
    var assigned: [String: [String]] = [:]
    for (index, spec) in specs.enumerated() {
      let requiredAfter = specs[(index + 1)...].filter(\.arity.isRequired).count
      switch spec.arity {
      case .required:
        guard let value = remaining.popFirst() else { throw .missingArgument(spec, at: path) }
        assigned[spec.name] = [value]
      case .optional:
        if remaining.count > requiredAfter, let value = remaining.popFirst() {
          assigned[spec.name] = [value]
        }
      case .oneOrMore, .zeroOrMore:
        let take = max(0, remaining.count - requiredAfter)
        if spec.arity == .oneOrMore && take == 0 { throw .missingArgument(spec, at: path) }
        assigned[spec.name] = Array(remaining.prefix(take))
        remaining = remaining.dropFirst(take)
      }
    }
    if let extra = remaining.first { throw .unexpectedArgument(extra, at: path) }
    return assigned
  }
}
