import Foundation

/// An `.inkling` file as the app's JSONEncoder writes it.
func inklingFile(drawing: [UInt8], color: (Double, Double, Double, Double) = (1, 1, 1, 1), escapeSlashes: Bool = true)
  -> [UInt8]
{
  struct DraftFile: Encodable {
    let drawingData: Data
    let color: RGBA
    struct RGBA: Encodable { let r: Double, g: Double, b: Double, a: Double }
  }
  let encoder = JSONEncoder()
  if !escapeSlashes { encoder.outputFormatting = .withoutEscapingSlashes }
  let file = DraftFile(drawingData: Data(drawing), color: .init(r: color.0, g: color.1, b: color.2, a: color.3))
  return Array(try! encoder.encode(file))
}
