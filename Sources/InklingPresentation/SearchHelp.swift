// The search language in a few lines, for people: the help under the web pages' search box
// (`serve`). It names the command line's `import --source`, so it lives here, beside what the
// pages and the command line show, rather than in the library that parses the language;
// `search --help` says the same in its own words (SearchCommand).

import InklingArchive

extension SearchParser {
  /// A summary of the search language for people, one idea per line, 80 columns wide.
  package static let helpText = """
    A query is terms joined by `and` (or just spaces), `or`, `not` and parentheses:
      name:cat saved:>=2025-10 saved:<7d
      (name:portrait or name:study) and strokes:>100 and ink:marker
      background:#1a1a1f versions:>3 imported:today

    Fields (a bare word is a name):
      name:TEXT        the name contains TEXT (case and accents ignored: cafe finds Café)
      name:=NAME       the draft called exactly NAME
      name:GLOB        the whole name matches * ? [abc]; quote to keep them literal
      saved:DATE       a version was saved then; imported:DATE a version was imported then
      versions:N       how many versions the draft has
      strokes:N        visible strokes in the newest version
      ink:NAME         the newest version uses pen, pencil, marker, monoline, fountainpen,
                       watercolor or crayon
      background:C     the newest version's background: #rrggbb, #rgb or white, black,
                       cream, gray, red, … (close colours match too)
      source:TEXT      a version came from a source whose label contains TEXT (the
                       folder imported from, the label of `import --source`, a merged
                       archive's labels)
      tag:TAG          the draft has the tag (case and accents ignored); tag:client: or
                       tag:cli* any tag that starts so (`tag` gives tags)
      stars:N          its stars, 0 (none) to 5: stars:>=4 (`star` gives them)
      note:TEXT        a note on the draft or on one of its versions contains TEXT (case
                       and accents ignored; `note` writes them)
      label:NAME       one of its versions is labelled NAME (`label` names versions)

    Operators: field:VALUE (=), field:>VALUE, >=, <, <=. A date is a period: 2025,
    2025-10, 2025-10-05, 2025-10-05T14:03 (local time), 2025-10-05T14:03:12Z,
    …+02:00, today, yesterday; `>=` means from its start, `>` after its end, `<`
    before its start, `<=` until its end. An age 30min, 12h, 7d, 3w, 2mo, 1y compares
    as an age: saved:<7d is "saved less than 7 days ago" (as is saved:7d), saved:>7d
    "saved more than 7 days ago". (30m is refused: minutes or months?)
    Date terms on one field joined by `and` are one period: saved:>=2025-10
    saved:<2025-11 finds drafts with a version saved in October.
    Values with spaces or keywords go in double quotes: name:"still life", "and".
    """
}
