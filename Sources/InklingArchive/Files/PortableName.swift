// File names that every common unzip writes as they are: the names of a zip meant to be
// downloaded and unpacked anywhere (Windows Explorer, 7-Zip, macOS Archive Utility, Info-ZIP).
//
// A folder name (FolderNaming.safeName) is safe on the file system it is written to; a zip's
// entry is unpacked on whichever the person has. Windows refuses `:` (which every save stamp
// holds), `"<>|?*\`, control characters, names ending in a dot or a space, and the device
// names (`CON`, `NUL`, `COM1`, … whatever follows their first dot); an unzip that meets one
// stops or renames it its own way. The invisible and direction-changing characters that
// `Quoted` finds unsafe make a name lie (`x\u{202E}gnp.exe` shows as `xexe.png`), so they go too.
// Each becomes `_`: a stamp's `14_03_12Z` is one that import reads as `14:03:12Z`, so the files
// go back to the same draft and save time; the manifest beside them keeps each original name.

import InklingFormats

enum PortableName {
  /// `name` with every character some unzip refuses or shows misleadingly replaced by `_`,
  /// and a Windows device name kept from being one (`CON.inkling` is `CON_.inkling`).
  static func of(_ name: String) -> String {
    let mapped = zip(name.unicodeScalars, Quoted.unsafeScalars(in: name)).map { scalar, unsafe in
      unsafe || refused(scalar) ? "_" : scalar
    }
    // Windows drops a name's trailing dots and spaces, so two names could become one.
    let kept = mapped.count - mapped.reversed().prefix { $0 == "." || $0 == " " }.count
    let scalars = mapped.prefix(kept) + Array(repeating: "_", count: mapped.count - kept)
    var portable = String(String.UnicodeScalarView(scalars))
    if isDeviceName(portable) {
      let stem = portable.prefix { $0 != "." }
      portable = stem + "_" + portable.dropFirst(stem.count)
    }
    return portable
  }

  /// The characters Windows refuses in a name, and every control character.
  private static func refused(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || #":"<>|?*\"#.unicodeScalars.contains(scalar)
  }

  /// Whether Windows takes `name` for a device: its part before the first dot, without
  /// trailing spaces, is one of the reserved names, in any case.
  static func isDeviceName(_ name: String) -> Bool {
    var stem = Substring(name.prefix { $0 != "." })
    while stem.last == " " { stem.removeLast() }
    let upper = stem.uppercased()
    if ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"].contains(upper) { return true }
    guard upper.count == 4, upper.hasPrefix("COM") || upper.hasPrefix("LPT") else { return false }
    return "0123456789¹²³".contains(upper.last!)
  }
}
