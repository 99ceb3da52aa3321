// The error responses libmicrohttpd writes itself (a head too large, an HTTP version it does
// not speak) get the headers every other response carries through inkling_mhd_error_response,
// which the release build's patched libmicrohttpd calls (packaging/libmicrohttpd/). Debian's
// shared library, which these tests link, never calls it, so the tests call it as the patched
// library does; Tests/Package/release_test.sh checks the release binary's own 431 and 505.

import CMicroHTTPD
import HTTPDBridge
import Testing

@testable import InklingServer

@Suite struct LibraryErrorResponseTests {
  @Test func aStartedServerGivesTheLibrarysErrorResponsesTheSecurityHeaders() throws {
    _ = try SharedArchive.get()
    let response = try #require(MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT))
    defer { MHD_destroy_response(response) }
    inkling_mhd_error_response(response)
    for (name, value) in ResponseEncoding.libraryErrorHeaders {
      let sent = MHD_get_response_header(response, name).map { String(cString: $0) }
      #expect(sent == value, "\(name)")
    }
    #expect(ResponseEncoding.libraryErrorHeaders.contains { $0.0 == "Content-Security-Policy" })
    #expect(ResponseEncoding.libraryErrorHeaders.contains { $0 == ("X-Content-Type-Options", "nosniff") })
  }

  @Test func theListCrossesToCAsNamesAndValuesEndedByNULs() {
    var settings = HTTPDaemonSettings(host: "127.0.0.1", port: 0, threads: 1)
    settings.errorHeaders = [("A", "1"), ("Bc", "")]
    #expect(settings.errorHeaderList.map { UInt8(bitPattern: $0) } == Array("A\u{0}1\u{0}Bc\u{0}\u{0}\u{0}".utf8))
  }
}
