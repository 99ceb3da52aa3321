// Why `DrawingWriter` refused a drawing: a rule of "Writing" in docs/pkdrawing-format.md that
// the model breaks, and which stroke breaks it.

/// A drawing that breaks a rule PencilKit's reader needs (docs/pkdrawing-format.md,
/// "Writing"), with where: "stroke 3 › substroke 1: version (Stroke.3) is missing".
public struct DrawingWriteError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    /// Only format version 1 is written, so that iOS 18 can read the result.
    case unsupportedFormatVersion(UInt8)
    /// `replicas[0]` must be the all-zero UUID.
    case firstReplicaNotZero
    case duplicateReplica(index: Int, firstIndex: Int)
    case badUUIDLength(field: String, bytes: Int)
    /// `Drawing.8` is required.
    case missingDrawingUUID
    /// `Stroke.3` is required: PencilKit drops a stroke without it.
    case missingVersionID
    /// `Stroke.3`'s replica index does not name a replica.
    case replicaIndexOutOfRange(index: UInt64, replicaCount: Int)
    case inkIndexOutOfRange(index: Int, inkCount: Int)
    /// Bit 0x400 (threshold) is only written by iOS 26; iOS 18 cannot read it.
    case thresholdNotAllowed
    /// Mask bits above 0x400.
    case unknownPointProperties(UInt64)
    case propertyInBothMasks(UInt64)
    /// The seed is stored in `Stroke.8` bits 5…63, so it must be below 2^59.
    case randomSeedTooLarge(UInt64)
    case nestingTooDeep(limit: Int)
  }

  public var kind: Kind
  /// "drawing", "replica 2", "stroke 12", "stroke 3 › substroke 1 › path"; indices from 0.
  public var location: String

  public init(_ kind: Kind, location: String = "drawing") {
    self.kind = kind
    self.location = location
  }

  public var description: String {
    "\(location): \(explanation)"
  }

  private var explanation: String {
    switch kind {
    case .unsupportedFormatVersion(let version):
      "format version \(version) cannot be written; the writer writes version 1 (readable by iOS 18)"
    case .firstReplicaNotZero: "the first replica UUID must be all zeros"
    case .duplicateReplica(let index, let first): "replica \(index) repeats replica \(first)"
    case .badUUIDLength(let field, let bytes): "\(field) is \(bytes) bytes; a UUID is 16"
    case .missingDrawingUUID: "the drawing UUID (Drawing.8) is missing"
    case .missingVersionID: "the version (Stroke.3) is missing; PencilKit would drop the stroke"
    case .replicaIndexOutOfRange(let index, let count):
      "the version's replica index \(index) is out of range; the drawing has \(count) replica\(count == 1 ? "" : "s")"
    case .inkIndexOutOfRange(let index, let count):
      "ink index \(index) is out of range; the drawing has \(count) ink\(count == 1 ? "" : "s")"
    case .thresholdNotAllowed:
      "point property 0x400 (threshold) is only written by iOS 26; leave it out so iOS 18 can read the drawing"
    case .unknownPointProperties(let bits):
      "point property bits 0x\(String(bits, radix: 16, uppercase: true)) are unknown"
    case .propertyInBothMasks(let bits):
      "point property 0x\(String(bits, radix: 16, uppercase: true)) is in both the varying and the constant mask"
    case .randomSeedTooLarge(let seed): "random seed \(seed) does not fit in 59 bits"
    case .nestingTooDeep(let limit): "substrokes nest more than \(limit) levels deep"
    }
  }
}
