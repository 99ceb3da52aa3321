// Writing the PNGs of `thumbnail`, `render` and `contact-sheet`, with restore's guarantees
// (FileOutput): never over an existing file unless asked, never half a file under the name.

/// PNG files written by the image commands.
public enum ImageFile {
  /// Writes `png` to `path` atomically.
  ///
  /// - Throws: `ArchiveError` of kind `.failed` when the file exists and `overwrite` is
  ///   false, or it cannot be written.
  public static func write(_ png: [UInt8], to path: String, overwrite: Bool = false) throws(ArchiveError) {
    try FileOutput.write(png, to: path, modificationNanoseconds: nil, overwrite: overwrite)
  }
}
