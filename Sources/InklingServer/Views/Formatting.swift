// A date in a page: what people read (Presentation's Format, the command line's local time)
// inside a <time> element whose attribute machines read (ISO 8601 UTC, as in the JSON).

import FoundationEssentials
import InklingFormats
import InklingPresentation

enum Formatting {
  /// `<time datetime="2025-10-05T14:03:12Z">2025-10-05 14:03</time>`.
  static func time(_ date: Date) -> HTML {
    "<time datetime=\"\(attribute: ISO8601UTC.string(date))\">\(Format.minute(date))</time>"
  }
}
