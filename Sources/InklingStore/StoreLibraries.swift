// The libraries the store links, with the versions they report (see LinkedLibrary).

import CCrypto
import CSQLite
import CZstd
import InklingFormats

extension LinkedLibrary {
  /// SQLite (the archive), zstd (blobs and deltas), OpenSSL's libcrypto (SHA-256).
  package static var store: [LinkedLibrary] {
    [
      LinkedLibrary("SQLite", String(cString: sqlite3_libversion())),
      LinkedLibrary("zstd", String(cString: ZSTD_versionString())),
      LinkedLibrary("OpenSSL libcrypto", openSSLVersion()),
    ]
  }

  /// "OpenSSL 3.0.15 3 Sep 2024" → "3.0.15 3 Sep 2024".
  private static func openSSLVersion() -> String {
    let text = String(cString: OpenSSL_version(numericCast(OPENSSL_VERSION)))
    return text.hasPrefix("OpenSSL ") ? String(text.dropFirst(8)) : text
  }
}
