// The library `serve` links, with the version it reports (see LinkedLibrary).

import CMicroHTTPD
import InklingFormats

extension LinkedLibrary {
  /// GNU libmicrohttpd, the HTTP server.
  public static var server: [LinkedLibrary] {
    [LinkedLibrary("libmicrohttpd", MHD_get_version().map { String(cString: $0) } ?? "unknown")]
  }
}
