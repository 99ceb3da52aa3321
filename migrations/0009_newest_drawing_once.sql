-- 0009: the newest drawing's inks on `draft` (0008) are kept by one update per drawing at
-- import, not one per ink row (docs/decisions.md, "The drawing index costs at most 15 % of
-- an import"). The importer writes a batch's drawing index after the batch's versions, so
-- under 0008 each `drawing` row and each of its ~4 `drawing_ink` rows ran an UPDATE of
-- `draft`; the ink rows' updates were more than half of the time drawing and drawing_ink rows
-- took to insert.
--
-- Invariant 2 of 0008 becomes:
--  2. draft.latest_inks = the OR of ink_bit(name) over the `drawing_ink` rows of the blob of
--     version latest_version_id **when that blob has a `drawing` row**; 0 otherwise (no
--     version, or not indexed: as latest_strokes is then NULL). ink_bit is the table below.
-- So a drawing's ink rows, written just before its drawing row (DrawingIndexWriter), cost one
-- lookup each and no update; the drawing row's trigger then sets strokes and inks at once.
-- Invariants 1 and 3 are unchanged; `inkling-archive check` verifies all three.
--
-- UPDATE … FROM version (SQLite 3.33) finds the drafts whose newest version holds a blob by
-- two index lookups (version_by_blob, draft_by_latest_version); `latest_version_id IN
-- (SELECT …)` built an ephemeral list for every row.

-- The bit of each ink name in draft.latest_inks; any other name has 256 ("look in
-- drawing_ink"). SearchCompiler.inkBits holds the same table (a test checks that they agree).
-- Written once here instead of as a CASE in every trigger.
CREATE TABLE ink_bit (name TEXT PRIMARY KEY, bit INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO ink_bit(name, bit) VALUES ('pen', 1), ('pencil', 2), ('marker', 4), ('monoline', 8), ('fountainpen', 16),
  ('watercolor', 32), ('crayon', 64), ('eraser', 128);

-- Existing drafts: under 0008, ink rows counted without a drawing row. By invariant 1,
-- latest_strokes is NULL exactly when the newest version's blob has no drawing row (or there
-- is no version, where latest_inks is 0 already): stroke_count and hidden_count are NOT NULL.
-- Testing it reads draft_by_latest alone (0.1 s for a million drafts; looking for the
-- drawing row of each draft took 2 s).
UPDATE draft SET latest_inks = 0 WHERE latest_inks <> 0 AND latest_strokes IS NULL;

-- MARK: - Triggers (invariants 1, 2)
-- The sum of DISTINCT bits is their OR: drawing_ink has one row per (blob, name), so only the
-- bit 256 can repeat.

-- The newest version changed (an import, or any writer of latest_version_id).
DROP TRIGGER draft_newest_drawing;
CREATE TRIGGER draft_newest_drawing AFTER UPDATE OF latest_version_id ON draft
WHEN NEW.latest_version_id IS NOT OLD.latest_version_id BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT dr.stroke_count - dr.hidden_count FROM version AS v JOIN drawing AS dr
      ON dr.blob_id = v.blob_id WHERE v.id = NEW.latest_version_id),
    latest_inks = coalesce((SELECT sum(DISTINCT coalesce(b.bit, 256)) FROM version AS v
      JOIN drawing AS dr ON dr.blob_id = v.blob_id JOIN drawing_ink AS di ON di.blob_id = v.blob_id
      LEFT JOIN ink_bit AS b ON b.name = di.ink WHERE v.id = NEW.latest_version_id), 0)
  WHERE id = NEW.id;
END;

DROP TRIGGER draft_newest_drawing_insert;
CREATE TRIGGER draft_newest_drawing_insert AFTER INSERT ON draft WHEN NEW.latest_version_id IS NOT NULL BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT dr.stroke_count - dr.hidden_count FROM version AS v JOIN drawing AS dr
      ON dr.blob_id = v.blob_id WHERE v.id = NEW.latest_version_id),
    latest_inks = coalesce((SELECT sum(DISTINCT coalesce(b.bit, 256)) FROM version AS v
      JOIN drawing AS dr ON dr.blob_id = v.blob_id JOIN drawing_ink AS di ON di.blob_id = v.blob_id
      LEFT JOIN ink_bit AS b ON b.name = di.ink WHERE v.id = NEW.latest_version_id), 0)
  WHERE id = NEW.id;
END;

-- A version pointed at another blob.
DROP TRIGGER version_newest_blob;
CREATE TRIGGER version_newest_blob AFTER UPDATE OF blob_id ON version BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT dr.stroke_count - dr.hidden_count FROM drawing AS dr WHERE dr.blob_id = NEW.blob_id),
    latest_inks = coalesce((SELECT sum(DISTINCT coalesce(b.bit, 256)) FROM drawing AS dr
      JOIN drawing_ink AS di ON di.blob_id = dr.blob_id LEFT JOIN ink_bit AS b ON b.name = di.ink
      WHERE dr.blob_id = NEW.blob_id), 0)
    WHERE latest_version_id = NEW.id;
END;

-- A drawing indexed (at import, after its ink rows), reindexed or dropped: strokes and inks
-- together. Its version may not exist yet, and most drawings an import indexes are not a
-- draft's newest: the WHEN test settles those with two index lookups, where the UPDATE
-- … FROM first builds two ephemeral tables.
DROP TRIGGER drawing_newest_insert;
CREATE TRIGGER drawing_newest_insert AFTER INSERT ON drawing
WHEN EXISTS (SELECT 1 FROM version JOIN draft ON draft.latest_version_id = version.id WHERE version.blob_id = NEW.blob_id)
BEGIN
  UPDATE draft SET latest_strokes = NEW.stroke_count - NEW.hidden_count,
    latest_inks = coalesce((SELECT sum(DISTINCT coalesce(b.bit, 256)) FROM drawing_ink AS di
      LEFT JOIN ink_bit AS b ON b.name = di.ink WHERE di.blob_id = NEW.blob_id), 0)
    FROM version WHERE version.blob_id = NEW.blob_id AND draft.latest_version_id = version.id;
END;

DROP TRIGGER drawing_newest_update;
CREATE TRIGGER drawing_newest_update AFTER UPDATE OF blob_id, stroke_count, hidden_count ON drawing BEGIN
  UPDATE draft SET latest_strokes = NULL, latest_inks = 0
    FROM version WHERE version.blob_id = OLD.blob_id AND draft.latest_version_id = version.id;
  UPDATE draft SET latest_strokes = NEW.stroke_count - NEW.hidden_count,
    latest_inks = coalesce((SELECT sum(DISTINCT coalesce(b.bit, 256)) FROM drawing_ink AS di
      LEFT JOIN ink_bit AS b ON b.name = di.ink WHERE di.blob_id = NEW.blob_id), 0)
    FROM version WHERE version.blob_id = NEW.blob_id AND draft.latest_version_id = version.id;
END;

DROP TRIGGER drawing_newest_delete;
CREATE TRIGGER drawing_newest_delete AFTER DELETE ON drawing BEGIN
  UPDATE draft SET latest_strokes = NULL, latest_inks = 0
    FROM version WHERE version.blob_id = OLD.blob_id AND draft.latest_version_id = version.id;
END;

-- A drawing's ink rows written or dropped: they count only once the drawing has its row, so
-- without one there is nothing to do (the drawing row's insert trigger reads them).
DROP TRIGGER drawing_ink_newest_insert;
CREATE TRIGGER drawing_ink_newest_insert AFTER INSERT ON drawing_ink
WHEN EXISTS (SELECT 1 FROM drawing WHERE blob_id = NEW.blob_id) BEGIN
  UPDATE draft SET latest_inks = latest_inks | coalesce((SELECT bit FROM ink_bit WHERE name = NEW.ink), 256)
    FROM version WHERE version.blob_id = NEW.blob_id AND draft.latest_version_id = version.id;
END;

DROP TRIGGER drawing_ink_newest_change;
CREATE TRIGGER drawing_ink_newest_change AFTER UPDATE OF blob_id, ink ON drawing_ink BEGIN
  UPDATE draft SET latest_inks = coalesce((SELECT sum(DISTINCT coalesce(b.bit, 256)) FROM drawing AS dr
      JOIN drawing_ink AS di ON di.blob_id = dr.blob_id LEFT JOIN ink_bit AS b ON b.name = di.ink
      WHERE dr.blob_id = version.blob_id), 0)
    FROM version WHERE version.blob_id IN (OLD.blob_id, NEW.blob_id) AND draft.latest_version_id = version.id;
END;

DROP TRIGGER drawing_ink_newest_delete;
CREATE TRIGGER drawing_ink_newest_delete AFTER DELETE ON drawing_ink
WHEN EXISTS (SELECT 1 FROM drawing WHERE blob_id = OLD.blob_id) BEGIN
  UPDATE draft SET latest_inks = coalesce((SELECT sum(DISTINCT coalesce(b.bit, 256)) FROM drawing_ink AS di
      LEFT JOIN ink_bit AS b ON b.name = di.ink WHERE di.blob_id = OLD.blob_id), 0)
    FROM version WHERE version.blob_id = OLD.blob_id AND draft.latest_version_id = version.id;
END;
