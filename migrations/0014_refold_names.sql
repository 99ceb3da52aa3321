-- 0014: the stored folds made again by the fold of this build (NameFolding.swift: utf8proc's
-- NFKD, the marks of the diacritic blocks removed, Unicode case folding, NFC). Folds written by
-- an earlier fold differ for some names outside ASCII (Cherokee folds to its uppercase letters,
-- Unicode's caseless form); a stale fold is a name that `name:` or `source:` no longer finds.
--
-- Invariants 0003 (1, 2) and 0013 (1) hold again afterwards: draft.name_folded =
-- inkling_fold(name), name_gram holds exactly the grams of name_folded, source.label_folded =
-- inkling_fold(label). Only drafts whose stored fold differs are written: an ASCII name folds
-- by lowercasing alone, in this build as in every earlier one, so it is not even folded here,
-- and an archive of ASCII names costs one scan of `draft` and writes nothing.
--
-- 0003's limit of 4096 folded characters (invariant 4) is not checked again: a name that the
-- new fold made longer than that keeps the grams of its first 4096 characters, and failing
-- here would leave the archive unusable.

CREATE TEMP TABLE refold (
  id INTEGER PRIMARY KEY,
  old TEXT NOT NULL,
  new TEXT NOT NULL
);
-- A name has a character beyond ASCII exactly when it has more bytes than characters.
INSERT INTO refold(id, old, new)
  SELECT id, name_folded, inkling_fold(name) FROM draft
  WHERE length(CAST(name AS BLOB)) > length(name) AND inkling_fold(name) IS NOT name_folded;

-- The grams of the stored folds (exactly those, as invariant 0003.2 held for them) that the new
-- folds lack, kept by their key so that each is removed through name_gram's primary key; the
-- grams both folds have stay, and INSERT OR IGNORE leaves them alone.
CREATE TEMP TABLE stale_gram (
  gram TEXT NOT NULL,
  draft_id INTEGER NOT NULL,
  PRIMARY KEY (gram, draft_id)
) WITHOUT ROWID;
INSERT INTO stale_gram(gram, draft_id)
  SELECT substr(r.old || char(1, 1), p.i, 3), r.id FROM refold r JOIN search_position p ON p.i <= length(r.old)
  EXCEPT
  SELECT substr(r.new || char(1, 1), p.i, 3), r.id FROM refold r JOIN search_position p ON p.i <= length(r.new);
DELETE FROM name_gram WHERE (gram, draft_id) IN (SELECT gram, draft_id FROM stale_gram);
UPDATE draft SET name_folded = (SELECT new FROM refold WHERE refold.id = draft.id)
  WHERE id IN (SELECT id FROM refold);
INSERT OR IGNORE INTO name_gram(gram, draft_id)
  SELECT substr(r.new || char(1, 1), p.i, 3), r.id FROM refold r JOIN search_position p ON p.i <= length(r.new);

DROP TABLE stale_gram;
DROP TABLE refold;

-- Writing a label computes its generated label_folded again, even when the label is unchanged
-- ("the value of a STORED column is computed when the row is written", SQLite's "Generated
-- Columns"); RefoldMigrationTests checks that SQLite does so.
UPDATE source SET label = label WHERE label_folded IS NOT inkling_fold(label);
