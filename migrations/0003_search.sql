-- 0003: finding drafts fast by name and date at a million drafts (`list` filters, `search`).
--
-- Names are matched folded: compatibility-decomposed, case-folded, accents (combining marks)
-- removed, recomposed (NameFolding.swift; SQL function inkling_fold, registered on every
-- connection, deterministic and innocuous so triggers may call it with trusted_schema off).
-- Substring search uses our own trigram table rather than FTS5's trigram tokenizer: SQLite
-- 3.40 (Debian 12) has no `remove_diacritics` for trigram, and FTS5 cannot match terms of one
-- or two characters (which matter: 猫, 絵, "b2"). Here every name is padded with two U+0001
-- so that each of its characters starts a gram; a 1- or 2-character term is then a prefix
-- range of grams, and a longer term the intersection of its grams' lists: an index lookup
-- for every length. Candidates are always re-checked with instr(name_folded, term).
--
-- Invariants (kept by the triggers below, whoever writes `draft`):
--  1. draft.name_folded = inkling_fold(draft.name).
--  2. name_gram holds exactly the rows (substr(name_folded || x'0101', i, 3), draft.id) for
--     i in 1...length(name_folded), for every draft: no more, no fewer.
--  3. draft.first_saved_ms = min(version.saved_ms) of the draft's versions (NULL if none);
--     with latest_saved_ms (kept by the import) it turns one-sided `saved:` comparisons into
--     a range on one draft index: "has a version saved before X" = first_saved_ms < X.
--  4. Names (folded) are at most 4096 characters, the rows of search_position.

ALTER TABLE draft ADD COLUMN name_folded TEXT NOT NULL DEFAULT '';
ALTER TABLE draft ADD COLUMN first_saved_ms INTEGER;

-- 1, 2, …, 4096: the positions of a name's grams (CTEs are not allowed in triggers).
CREATE TABLE search_position (i INTEGER PRIMARY KEY);
INSERT INTO search_position(i)
  WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4096) SELECT i FROM n;

-- Three characters of a padded folded name → the drafts holding them.
CREATE TABLE name_gram (
  gram TEXT NOT NULL,
  draft_id INTEGER NOT NULL,
  PRIMARY KEY (gram, draft_id)
) WITHOUT ROWID;

-- Existing drafts (archives made before this migration).
UPDATE draft SET name_folded = inkling_fold(name);
UPDATE draft SET first_saved_ms = (SELECT min(saved_ms) FROM version WHERE version.draft_id = draft.id);
INSERT OR IGNORE INTO name_gram(gram, draft_id)
  SELECT substr(draft.name_folded || char(1, 1), p.i, 3), draft.id
  FROM draft JOIN search_position p ON p.i <= length(draft.name_folded);

-- Exact names and glob patterns with a literal prefix.
CREATE INDEX draft_by_folded ON draft(name_folded);
-- `saved:<X`: drafts with a version saved before X. With first_saved_ms beside
-- latest_saved_ms in both indexes, "drafts saved both before and after X" (those that may
-- have a version inside a period ending at X) is read from one index without the table.
CREATE INDEX draft_by_first ON draft(first_saved_ms, latest_saved_ms);
DROP INDEX draft_by_latest;
CREATE INDEX draft_by_latest ON draft(latest_saved_ms, first_saved_ms);
CREATE INDEX draft_by_versions ON draft(version_count);
-- From a version (found by strokes, ink) to the draft whose newest version it is.
CREATE INDEX draft_by_latest_version ON draft(latest_version_id);
-- Covering indexes from a date range to drafts without reading version rows. The first
-- replaces version_by_saved(saved_ms), which it contains.
CREATE INDEX version_by_saved_draft ON version(saved_ms, draft_id);
DROP INDEX version_by_saved;
CREATE INDEX version_by_imported_draft ON version(imported_ms, draft_id);

-- MARK: - Triggers (invariants 1–4)

CREATE TRIGGER draft_search_insert AFTER INSERT ON draft BEGIN
  SELECT RAISE(ABORT, 'a draft name is at most 4096 characters')
    WHERE length(inkling_fold(NEW.name)) > 4096;
  UPDATE draft SET name_folded = inkling_fold(NEW.name) WHERE id = NEW.id;
  INSERT OR IGNORE INTO name_gram(gram, draft_id)
    SELECT substr(d.name_folded || char(1, 1), p.i, 3), d.id
    FROM draft d JOIN search_position p ON p.i <= length(d.name_folded) WHERE d.id = NEW.id;
END;

CREATE TRIGGER draft_search_rename AFTER UPDATE OF name ON draft WHEN NEW.name IS NOT OLD.name BEGIN
  SELECT RAISE(ABORT, 'a draft name is at most 4096 characters')
    WHERE length(inkling_fold(NEW.name)) > 4096;
  DELETE FROM name_gram WHERE draft_id = OLD.id AND gram IN
    (SELECT substr(OLD.name_folded || char(1, 1), i, 3) FROM search_position WHERE i <= length(OLD.name_folded));
  UPDATE draft SET name_folded = inkling_fold(NEW.name) WHERE id = NEW.id;
  INSERT OR IGNORE INTO name_gram(gram, draft_id)
    SELECT substr(d.name_folded || char(1, 1), p.i, 3), d.id
    FROM draft d JOIN search_position p ON p.i <= length(d.name_folded) WHERE d.id = NEW.id;
END;

CREATE TRIGGER draft_search_delete AFTER DELETE ON draft BEGIN
  DELETE FROM name_gram WHERE draft_id = OLD.id AND gram IN
    (SELECT substr(OLD.name_folded || char(1, 1), i, 3) FROM search_position WHERE i <= length(OLD.name_folded));
END;

CREATE TRIGGER version_search_insert AFTER INSERT ON version BEGIN
  UPDATE draft SET first_saved_ms = min(coalesce(first_saved_ms, NEW.saved_ms), NEW.saved_ms)
    WHERE id = NEW.draft_id;
END;

CREATE TRIGGER version_search_delete AFTER DELETE ON version BEGIN
  UPDATE draft SET first_saved_ms = (SELECT min(saved_ms) FROM version WHERE draft_id = OLD.draft_id)
    WHERE id = OLD.draft_id;
END;

CREATE TRIGGER version_search_move AFTER UPDATE OF saved_ms, draft_id ON version BEGIN
  UPDATE draft SET first_saved_ms = (SELECT min(saved_ms) FROM version WHERE draft_id = draft.id)
    WHERE id IN (OLD.draft_id, NEW.draft_id);
END;
