-- 0019: what people say about their drafts, to keep a large collection in order: tags on
-- drafts, stars, notes on a draft or on one of its versions, names for versions (labels), and
-- searches kept under a name. None of it is in the drafts' files; all of it is the archive's.
--
-- Tags, labels and saved searches are named as draft names are searched: by their fold
-- (inkling_fold, NameFolding.swift: NFC, case- and accent-insensitive), kept in a generated
-- column beside the text as first written, which is what is shown. `Portfolio` and
-- `portfolio` are one tag; `client:anna` is a tag like any other, and its fold starts with
-- `client:`, so every tag of that group is one range of tag_by_folded.
--
-- Invariants:
--  1. tag.name is NFC, 1 to 256 characters; tag.name_folded = inkling_fold(name) (generated)
--     and unique: one tag per fold, spelled as it was first written.
--  2. draft_tag holds a draft's tags, once each; rows go with their draft (ON DELETE CASCADE),
--     so a purge needs no knowledge of this table; a trashed draft keeps its rows. A tag that
--     no draft has any more is removed by whoever removed its last row (untag, purge).
--  3. draft.stars is NULL (not starred) or 1 to 5.
--  4. A note's draft_id is its version's draft when version_id is set (a version's note), and
--     a draft's note otherwise; a draft or version may have several (a merge keeps both sides'
--     notes). Rows go with their draft or version (ON DELETE CASCADE); a rename that joins two
--     drafts moves them with the versions.
--  5. version_label.draft_id is its version's draft; name_folded = inkling_fold(name) is unique
--     per draft (a name any `--version` option accepts names one version), and a label is not
--     a whole number (that is a version number). Rows go with their version.
--  6. saved_search.name_folded = inkling_fold(name) is unique; query is the search's text as
--     given, parsed again each time it runs (so a saved search reads as the language does then).

CREATE TABLE tag (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  name_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(name)) STORED
);
-- `tag:X` is one entry; `tag:client:` a range of entries (invariant 1).
CREATE UNIQUE INDEX tag_by_folded ON tag(name_folded);

CREATE TABLE draft_tag (
  draft_id INTEGER NOT NULL REFERENCES draft(id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tag(id),
  PRIMARY KEY (draft_id, tag_id)
) WITHOUT ROWID;
-- The drafts of a tag (`tag:X` as a search's driver, `tags` counts); the primary key answers
-- "the tags of this draft" and `tag:X` tested on one draft.
CREATE INDEX draft_tag_by_tag ON draft_tag(tag_id, draft_id);

-- Invariant 3.
ALTER TABLE draft ADD COLUMN stars INTEGER CHECK (stars BETWEEN 1 AND 5);
-- `stars:>=4`, `list --starred` and the sort by stars: live starred drafts, most stars first.
CREATE INDEX draft_by_stars ON draft(stars, latest_saved_ms, id) WHERE stars IS NOT NULL AND deleted_ms IS NULL;

CREATE TABLE note (
  id INTEGER PRIMARY KEY,
  draft_id INTEGER NOT NULL REFERENCES draft(id) ON DELETE CASCADE,
  version_id INTEGER REFERENCES version(id) ON DELETE CASCADE,
  text TEXT NOT NULL CHECK (length(text) BETWEEN 1 AND 65536),
  -- What `note:TEXT` matches, folded as names are.
  text_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(text)) STORED,
  written_ms INTEGER NOT NULL
);
-- A draft's notes and its versions' (`show`, `history`; `note:` tested on one draft).
CREATE INDEX note_by_draft ON note(draft_id, version_id);
CREATE INDEX note_by_version ON note(version_id) WHERE version_id IS NOT NULL;

CREATE TABLE version_label (
  id INTEGER PRIMARY KEY,
  version_id INTEGER NOT NULL REFERENCES version(id) ON DELETE CASCADE,
  draft_id INTEGER NOT NULL REFERENCES draft(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  name_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(name)) STORED,
  CHECK (name GLOB '*[^0-9]*')
);
-- Invariant 5: one version per name in a draft; `--version NAME` is one entry.
CREATE UNIQUE INDEX version_label_by_draft ON version_label(draft_id, name_folded);
-- The labels of a version (history, diff, time-lapse marks), and rows going with it.
CREATE INDEX version_label_by_version ON version_label(version_id);
-- `label:NAME`: the drafts with a version so named.
CREATE INDEX version_label_by_name ON version_label(name_folded, draft_id);

CREATE TABLE saved_search (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 256),
  name_folded TEXT NOT NULL GENERATED ALWAYS AS (inkling_fold(name)) STORED,
  query TEXT NOT NULL,
  saved_ms INTEGER NOT NULL
);
CREATE UNIQUE INDEX saved_search_by_name ON saved_search(name_folded);
