// Which file name a version keeps when several files hold it: Finder and Files name a
// duplicate `X (1).inkling` or `X 2.inkling`, a sync tool its conflict copy, a FAT stick the
// stamp's colons; the version keeps the app's own name (`DraftFileName.isAppsOwnName`)
// whenever one of its files has it, whichever file was imported first. A version whose
// name is the app's own keeps it: the first such file imported names it.

import InklingFormats

enum VersionFileName {
  /// `incoming`, when a version named `stored` should take it instead; nil otherwise.
  ///
  /// Called only when the names differ, which is rare: a file imported again has the name
  /// it was stored with.
  static func replacement(for stored: String, by incoming: String) -> String? {
    guard incoming != stored, DraftFileName(incoming)?.isAppsOwnName == true,
      DraftFileName(stored)?.isAppsOwnName != true
    else { return nil }
    return incoming
  }
}
