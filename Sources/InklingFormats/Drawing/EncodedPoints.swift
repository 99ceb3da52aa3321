// A path's points left as the bytes hold them, for a caller that looks at each point once
// (DrawingReader.read(_:leavingPointsEncoded:skipping:)): the drawing index digests a new
// stroke's points and keeps their count and the first and last times, so building a
// 96-byte `StrokePoint` for each point, to read it back once and free it, would be work done
// for nothing on the import's critical path.
//
// Where the records are is three 32-bit numbers, not a decoded base point: a `Stroke` holds
// its path by value, every save of a draft holds a placeholder stroke for each stroke it
// repeats, and a larger `Stroke` is moved with a call to memcpy where a small one is not.
//
// `StrokePath.encodedPoint(_:in:)` gives exactly what the reader's array holds at that index:
// both decode the constants over the defaults, then a record over that, with
// `PointPropertyCoding.decode`.

/// Where a path's point records are in the bytes read (see the file comment).
package struct EncodedPoints: Hashable, Sendable {
  let pointCount: UInt32
  /// The offsets of the first record (`StrokeData.7`) and of the constants (`StrokeData.6`).
  let records: UInt32
  let constants: UInt32

  /// Nil when a number does not fit in 32 bits: the reader then decodes the points.
  init?(count: Int, records: Int, constants: Int) {
    guard let count = UInt32(exactly: count), let records = UInt32(exactly: records),
      let constants = UInt32(exactly: constants)
    else { return nil }
    (pointCount, self.records, self.constants) = (count, records, constants)
  }

  package var count: Int { Int(pointCount) }
}

extension StrokePath {
  /// The number of points, decoded or left encoded.
  package var pointCount: Int { encodedPoints?.count ?? points.count }

  /// Whether the encoded points and constants lie inside `bytes` (checked before any is read;
  /// bytes other than those read may pass, and then give other points).
  package func encodedPointsFit(in bytes: UnsafeRawBufferPointer) -> Bool {
    guard let encoded = encodedPoints, bytes.baseAddress != nil else { return false }
    let stride = PointPropertyCoding.size(of: varyingProperties.rawValue)
    let constantsSize = PointPropertyCoding.size(of: constantProperties.rawValue)
    let (size, overflow) = encoded.count.multipliedReportingOverflow(by: stride)
    return !overflow && size <= bytes.count - Int(encoded.records)
      && constantsSize <= bytes.count - Int(encoded.constants)
  }

  /// Every point before its record is applied: the defaults with the constants set.
  /// `encodedPointsFit(in: bytes)` must hold.
  package func encodedBase(inChecked bytes: UnsafeRawBufferPointer) -> StrokePoint {
    PointPropertyCoding.base(
      constant: constantProperties.rawValue, from: bytes.baseAddress.map { $0 + Int(encodedPoints!.constants) })
  }

  /// Point `index` (in 0..<pointCount) of encoded points, from the bytes they were read from.
  package func encodedPoint(_ index: Int, in bytes: UnsafeRawBufferPointer) -> StrokePoint {
    precondition(index >= 0 && index < pointCount, "point \(index) of a path of \(pointCount)")
    precondition(
      encodedPointsFit(in: bytes), "encoded points outside the bytes given: not the bytes they were read from")
    return record(index, over: encodedBase(inChecked: bytes), inChecked: bytes)
  }

  /// The time offsets of the first and last of the encoded points (at least one), from the
  /// bytes they were read from: one check and one base for both, where two `encodedPoint`
  /// calls cost twice that for every new stroke the drawing index describes.
  package func encodedTimeSpan(in bytes: UnsafeRawBufferPointer) -> (first: Double, last: Double) {
    precondition(pointCount > 0, "the time span of a path without points")
    precondition(
      encodedPointsFit(in: bytes), "encoded points outside the bytes given: not the bytes they were read from")
    let base = encodedBase(inChecked: bytes)
    return (
      record(0, over: base, inChecked: bytes).timeOffset,
      record(pointCount - 1, over: base, inChecked: bytes).timeOffset
    )
  }

  /// The time offsets of the first and last point, decoded or left encoded in `bytes`; nil
  /// for a path without points.
  package func timeSpan(encodedIn bytes: UnsafeRawBufferPointer) -> (first: Double, last: Double)? {
    guard pointCount > 0 else { return nil }
    if encodedPoints != nil { return encodedTimeSpan(in: bytes) }
    return (points[0].timeOffset, points[points.count - 1].timeOffset)
  }

  /// Record `index` decoded over `base`; `encodedPointsFit(in: bytes)` must hold.
  @inline(__always) private func record(_ index: Int, over base: StrokePoint, inChecked bytes: UnsafeRawBufferPointer)
    -> StrokePoint
  {
    let mask = varyingProperties.rawValue
    var point = base
    PointPropertyCoding.decode(
      mask, from: bytes.baseAddress! + Int(encodedPoints!.records) + index * PointPropertyCoding.size(of: mask),
      into: &point)
    return point
  }

  /// The path with its points decoded from the bytes they were read from, as the reader
  /// decodes them.
  package func decodingPoints(in bytes: UnsafeRawBufferPointer) -> StrokePath {
    guard let encoded = encodedPoints else { return self }
    precondition(
      encodedPointsFit(in: bytes), "encoded points outside the bytes given: not the bytes they were read from")
    var path = self
    path.points = PointPropertyCoding.decodePoints(
      count: encoded.count, mask: varyingProperties.rawValue, from: bytes.baseAddress! + Int(encoded.records),
      base: encodedBase(inChecked: bytes))
    path.encodedPoints = nil
    return path
  }
}

/// What the drawing index reads of a path's times, in one read of the stroke.
package struct PathTimes {
  /// `StrokePath.creationDate`: seconds since 2001-01-01.
  package var creationDate: Double
  package var pointCount: Int
  /// `StrokePath.timeSpan(encodedIn:)`: nil for a path without points.
  package var span: (first: Double, last: Double)?
}

extension Stroke {
  /// The times of the stroke's path; nil without a path. (A method, so that a stroke in an
  /// array is read in place: each read of `strokes[i].path?…` copied the path.)
  package func pathTimes(encodedIn bytes: UnsafeRawBufferPointer) -> PathTimes? {
    guard let path else { return nil }
    return PathTimes(
      creationDate: path.creationDate, pointCount: path.pointCount, span: path.timeSpan(encodedIn: bytes))
  }

  /// The stroke with the points of its path, and of its substrokes' paths, decoded from
  /// `bytes` where a read left them encoded.
  package func decodingPoints(in bytes: UnsafeRawBufferPointer) -> Stroke {
    var stroke = self
    stroke.path = stroke.path?.decodingPoints(in: bytes)
    // Recursion as deep as the model nests: models from the reader nest at most
    // DrawingLimits.hardMaxNestingDepth levels.
    for index in stroke.substrokes.indices {
      stroke.substrokes[index] = stroke.substrokes[index].decodingPoints(in: bytes)
    }
    return stroke
  }
}
