// Serialises the generator's drawing models with InklingFormats' `DrawingWriter`.

import InklingFormats

enum DrawingSerializer {
  /// The `PKDrawing.dataRepresentation()` bytes of `drawing`.
  static func bytes(of drawing: Drawing) -> [UInt8] {
    do {
      return try DrawingWriter.write(drawing)
    } catch {
      // DraftHistory builds every drawing by the writer's rules (zero replica first, unique
      // replicas, version IDs with valid replica indexes, valid ink indexes, a drawing UUID,
      // masks without 0x400, 33-bit seeds): a refusal is a bug in the generator.
      fatalError("the corpus generator built a drawing DrawingWriter refuses: \(error)")
    }
  }
}
