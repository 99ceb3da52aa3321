// The rules `DrawingWriter` checks before it writes a byte (see the list in DrawingWriter.swift).
// Checking first keeps the writing code free of error paths.

extension DrawingWriter {
  static func validate(_ drawing: Drawing, maxNestingDepth: Int) throws(DrawingWriteError) {
    guard drawing.formatVersion == 1 else {
      throw DrawingWriteError(.unsupportedFormatVersion(drawing.formatVersion))
    }
    var seen: [UUIDBytes: Int] = [:]
    for (index, replica) in drawing.replicas.enumerated() {
      try checkUUID(replica, field: "replica UUID", location: "replica \(index)")
      if index == 0 && replica != .zero {
        throw DrawingWriteError(.firstReplicaNotZero, location: "replica 0")
      }
      if let first = seen[replica] {
        throw DrawingWriteError(
          .duplicateReplica(index: index, firstIndex: first), location: "replica \(index)")
      }
      seen[replica] = index
    }
    guard let uuid = drawing.uuid else { throw DrawingWriteError(.missingDrawingUUID) }
    try checkUUID(uuid, field: "drawing UUID", location: "drawing")
    var path: [Int] = []
    for (index, stroke) in drawing.strokes.enumerated() {
      path.append(index)
      try validate(stroke, drawing: drawing, path: &path, depth: 0, maxDepth: maxNestingDepth)
      path.removeLast()
    }
  }

  /// Checks a stroke and its substrokes; recursion stops at `maxDepth`. The location string is
  /// built only on failure: validation runs for every drawing the corpus generator writes.
  static func validate(
    _ stroke: Stroke, drawing: Drawing, path: inout [Int], depth: Int, maxDepth: Int
  )
    throws(DrawingWriteError)
  {
    if let problem = problem(in: stroke, drawing: drawing, depth: depth, maxDepth: maxDepth) {
      let location = describe(path) + (problem.inPath ? " › path" : "")
      throw DrawingWriteError(problem.problem.kind, location: location)
    }
    for (index, substroke) in stroke.substrokes.enumerated() {
      path.append(index)
      try validate(substroke, drawing: drawing, path: &path, depth: depth + 1, maxDepth: maxDepth)
      path.removeLast()
    }
  }

  enum Problem {
    case uuid(field: String, bytes: Int)
    case other(DrawingWriteError.Kind)
    var kind: DrawingWriteError.Kind {
      switch self {
      case .uuid(let field, let bytes): .badUUIDLength(field: field, bytes: bytes)
      case .other(let kind): kind
      }
    }
  }

  /// The first rule `stroke` itself breaks (not its substrokes), and whether it is in its path.
  static func problem(in stroke: Stroke, drawing: Drawing, depth: Int, maxDepth: Int) -> (
    inPath: Bool, problem: Problem
  )? {
    if let uuid = stroke.uuid, uuid.count != 16 {
      return (false, .uuid(field: "stroke UUID", bytes: uuid.count))
    }
    if let group = stroke.renderGroupID, group.count != 16 {
      return (false, .uuid(field: "render group UUID", bytes: group.count))
    }
    guard let version = stroke.versionID else { return (false, .other(.missingVersionID)) }
    guard version.replicaIndex < UInt64(drawing.replicas.count) else {
      return (
        false,
        .other(
          .replicaIndexOutOfRange(index: version.replicaIndex, replicaCount: drawing.replicas.count)
        )
      )
    }
    guard drawing.inks.indices.contains(stroke.inkIndex) else {
      return (
        false, .other(.inkIndexOutOfRange(index: stroke.inkIndex, inkCount: drawing.inks.count))
      )
    }
    guard stroke.randomSeed < 1 << 59 else {
      return (false, .other(.randomSeedTooLarge(stroke.randomSeed)))
    }
    guard stroke.substrokes.isEmpty || depth < maxDepth else {
      return (false, .other(.nestingTooDeep(limit: maxDepth)))
    }
    guard let path = stroke.path else { return nil }
    if let uuid = path.uuid, uuid.count != 16 {
      return (true, .uuid(field: "path UUID", bytes: uuid.count))
    }
    let varying = path.varyingProperties.rawValue
    let constant = path.constantProperties.rawValue
    let unknown = (varying | constant) & ~PointProperties.known.rawValue
    guard unknown == 0 else { return (true, .other(.unknownPointProperties(unknown))) }
    guard (varying | constant) & PointProperties.threshold.rawValue == 0 else {
      return (true, .other(.thresholdNotAllowed))
    }
    guard varying & constant == 0 else {
      return (true, .other(.propertyInBothMasks(varying & constant)))
    }
    return nil
  }

  static func checkUUID(_ uuid: UUIDBytes, field: String, location: @autoclosure () -> String)
    throws(DrawingWriteError)
  {
    guard uuid.count == 16 else {
      throw DrawingWriteError(
        .badUUIDLength(field: field, bytes: uuid.count), location: location())
    }
  }

  /// [3, 1] → "stroke 3 › substroke 1".
  static func describe(_ path: [Int]) -> String {
    var text = "stroke \(path.first ?? 0)"
    for index in path.dropFirst() { text += " › substroke \(index)" }
    return text
  }
}
