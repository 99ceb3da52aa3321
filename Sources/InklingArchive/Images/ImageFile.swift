// Writing the PNGs of `thumbnail`, `render` and `contact-sheet`, with restore's guarantees
// (FileOutput): never over an existing file unless asked, never half a file under the name.

/// PNG files written by the image commands.
public enum ImageFile {
  /// Writes `png` to `target`, a file atomically.
  ///
  /// - Throws: `ArchiveError.destinationExists` when the file exists and `overwrite` is
  ///   false, `.destinationIsFolder`, or `.fileSystem` when it cannot be written.
  public static func write(_ png: [UInt8], to target: OutputTarget, overwrite: Bool = false) throws(ArchiveError) {
    try FileOutput.write(png, to: target, modificationNanoseconds: nil, overwrite: overwrite)
  }
}
