// A draft as `list --json` prints it: {"name":…,"versions":N,"lastSaved":"…Z"}.

import InklingArchive
import InklingCommandLine

package enum DraftJSON {
  package static func object(_ draft: DraftSummary) -> JSONValue {
    ["name": .string(draft.name), "versions": .int(draft.versionCount), "lastSaved": .date(draft.lastSaved)]
  }
}
