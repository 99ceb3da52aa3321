// The error responses libmicrohttpd writes itself (a head too large, an HTTP version it does
// not speak) get the headers every other response carries through inkling_mhd_error_response,
// and the server's pages through inkling_mhd_error_page, which the release build's patched
// libmicrohttpd calls (packaging/libmicrohttpd/). Debian's shared library, which these tests
// link, calls neither, so the tests call them as the patched library does;
// Tests/Package/release_test.sh checks the release binary's own 431 and 505, and
// Tests/Browser/library_pages_test.py validates its pages.

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

  @Test func aStartedServerGivesTheLibrarysErrorResponsesItsOwnPages() throws {
    _ = try SharedArchive.get()
    for status in [400, 413, 414, 431, 500, 505] {
      var length = 0
      let page = try #require(inkling_mhd_error_page(UInt32(status), &length), "\(status)")
      let text = String(decoding: UnsafeRawBufferPointer(start: page, count: length), as: UTF8.self)
      #expect(text.hasPrefix("<!doctype html>\n<html lang=\"en\">"), "\(status): \(text)")
      #expect(text.contains("<h1>\(status) \(HTTPResponse.reason(status))</h1>"), "\(status): \(text)")
    }
    var length = 0
    let uriTooLong = try #require(inkling_mhd_error_page(414, &length))
    let text = String(decoding: UnsafeRawBufferPointer(start: uriTooLong, count: length), as: UTF8.self)
    #expect(text.contains("The address asked for is longer") && !text.contains("header"), "\(text)")
    // A status the server has no page for keeps the library's.
    #expect(inkling_mhd_error_page(418, &length) == nil)
  }

  @Test func theListCrossesToCAsNamesAndValuesEndedByNULs() {
    var settings = HTTPDaemonSettings(host: "127.0.0.1", port: 0, threads: 1)
    settings.errorHeaders = [("A", "1"), ("Bc", "")]
    #expect(settings.errorHeaderList.map { UInt8(bitPattern: $0) } == Array("A\u{0}1\u{0}Bc\u{0}\u{0}\u{0}".utf8))
  }
}
