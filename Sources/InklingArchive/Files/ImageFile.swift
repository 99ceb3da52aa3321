// Writing the PNGs of `thumbnail`, `render` and `contact-sheet`, with restore's guarantees
// (FileOutput): never over an existing file unless asked, never half a file under the name.
// Unlike a restored file, a picture is not synced to the disk before it is renamed into
// place: it can always be drawn again from the archive, and the sync would be most of a
// cached thumbnail's time. A crash soon after can lose the picture, or leave it empty on a
// file system that does not flush a file renamed over another (ext4 and btrfs do); drawing
// it again mends either.

/// PNG files written by the image commands.
public enum ImageFile {
  /// Writes `png` to `path`, a regular file atomically.
  ///
  /// - Throws: `ArchiveError.destinationExists` when the file exists and `overwrite` is
  ///   false, `.destinationIsFolder`, or `.fileSystem` when it cannot be written.
  public static func write(_ png: [UInt8], to path: String, overwrite: Bool = false) throws(ArchiveError) {
    try FileOutput.write(png, to: path, modificationNanoseconds: nil, overwrite: overwrite, durable: false)
  }
}
