-- 0008: what `strokes:`, `ink:` and `imported:` test, kept on `draft` and in the walk's index
-- (searches at a million drafts). A newest-first walk through draft_by_latest (SearchCompiler) rejected a name
-- match only after two lookups (newest version → its drawing row, its drawing_ink rows),
-- because stroke counts and inks live on the drawing; and `imported:` read every version of
-- every draft it walked. These columns let the walk decide from the index alone.
--
-- Invariants (kept by the triggers below, whoever writes `version`, `drawing`, `drawing_ink`
-- or draft.latest_version_id; `inkling-archive check` verifies them):
--  1. draft.latest_strokes = stroke_count − hidden_count of the `drawing` row of the blob of
--     version latest_version_id; NULL when there is no such row (not indexed yet) or no
--     version. Drawings that do not decode have a row with 0 strokes, so they count 0.
--  2. draft.latest_inks = the OR of ink_bit(name) over the `drawing_ink` rows of that blob
--     (0 when none), where ink_bit is: pen 1, pencil 2, marker 4, monoline 8, fountainpen 16,
--     watercolor 32, crayon 64, eraser 128, any other name 256 ("look in drawing_ink").
--     SearchCompiler.inkBits holds the same table. `ink:X` is then a bit test, and for a
--     name outside the table the bit 256 test and then the drawing_ink rows.
--  3. draft.first_imported_ms / latest_imported_ms = min / max(version.imported_ms) of the
--     draft's versions (NULL if none): like first/latest_saved_ms for `saved:`, they settle
--     most `imported:` tests without the versions.
--
-- The sum of DISTINCT bits is their OR: drawing_ink has one row per (blob, name), so only the
-- "other" bit 256 can repeat. Replacing a drawing row (INSERT OR REPLACE, reindex) runs the
-- insert trigger; the replaced row's delete trigger does not run (recursive_triggers is off),
-- and need not: the insert trigger recomputes from the new row.

ALTER TABLE draft ADD COLUMN latest_strokes INTEGER;
ALTER TABLE draft ADD COLUMN latest_inks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE draft ADD COLUMN first_imported_ms INTEGER;
ALTER TABLE draft ADD COLUMN latest_imported_ms INTEGER;

-- Existing drafts, before the indexes that hold these columns are built.
DROP INDEX draft_by_latest;
UPDATE draft SET
  latest_strokes = (SELECT dr.stroke_count - dr.hidden_count FROM version AS v JOIN drawing AS dr ON dr.blob_id = v.blob_id
    WHERE v.id = draft.latest_version_id),
  latest_inks = coalesce((SELECT sum(DISTINCT CASE di.ink WHEN 'pen' THEN 1 WHEN 'pencil' THEN 2 WHEN 'marker' THEN 4
      WHEN 'monoline' THEN 8 WHEN 'fountainpen' THEN 16 WHEN 'watercolor' THEN 32 WHEN 'crayon' THEN 64
      WHEN 'eraser' THEN 128 ELSE 256 END)
    FROM version AS v JOIN drawing_ink AS di ON di.blob_id = v.blob_id WHERE v.id = draft.latest_version_id), 0),
  first_imported_ms = (SELECT min(imported_ms) FROM version WHERE version.draft_id = draft.id),
  latest_imported_ms = (SELECT max(imported_ms) FROM version WHERE version.draft_id = draft.id);

-- The walk's index (0006) gains the new columns: still (latest, first, id) in key order.
CREATE INDEX draft_by_latest ON draft(latest_saved_ms, first_saved_ms, id, version_count, name_folded,
  latest_strokes, latest_inks, first_imported_ms, latest_imported_ms);
-- `imported:` periods ending at U, newest first (SearchCompiler's period plan): the drafts
-- first saved at or after U that were imported before it can only be drafts with a version
-- imported before their first save (a wrong clock, a future stamp): few, listed here.
CREATE INDEX draft_by_early_import ON draft(latest_saved_ms, first_saved_ms, id)
  WHERE first_imported_ms < first_saved_ms;

-- MARK: - Triggers (invariants 1–3)

-- 1, 2: the newest version changed (an import, or any writer of latest_version_id).
CREATE TRIGGER draft_newest_drawing AFTER UPDATE OF latest_version_id ON draft
WHEN NEW.latest_version_id IS NOT OLD.latest_version_id BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT dr.stroke_count - dr.hidden_count FROM version AS v JOIN drawing AS dr
      ON dr.blob_id = v.blob_id WHERE v.id = NEW.latest_version_id),
    latest_inks = coalesce((SELECT sum(DISTINCT CASE di.ink WHEN 'pen' THEN 1 WHEN 'pencil' THEN 2 WHEN 'marker' THEN 4
        WHEN 'monoline' THEN 8 WHEN 'fountainpen' THEN 16 WHEN 'watercolor' THEN 32 WHEN 'crayon' THEN 64
        WHEN 'eraser' THEN 128 ELSE 256 END)
      FROM version AS v JOIN drawing_ink AS di ON di.blob_id = v.blob_id WHERE v.id = NEW.latest_version_id), 0)
  WHERE id = NEW.id;
END;

CREATE TRIGGER draft_newest_drawing_insert AFTER INSERT ON draft WHEN NEW.latest_version_id IS NOT NULL BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT dr.stroke_count - dr.hidden_count FROM version AS v JOIN drawing AS dr
      ON dr.blob_id = v.blob_id WHERE v.id = NEW.latest_version_id),
    latest_inks = coalesce((SELECT sum(DISTINCT CASE di.ink WHEN 'pen' THEN 1 WHEN 'pencil' THEN 2 WHEN 'marker' THEN 4
        WHEN 'monoline' THEN 8 WHEN 'fountainpen' THEN 16 WHEN 'watercolor' THEN 32 WHEN 'crayon' THEN 64
        WHEN 'eraser' THEN 128 ELSE 256 END)
      FROM version AS v JOIN drawing_ink AS di ON di.blob_id = v.blob_id WHERE v.id = NEW.latest_version_id), 0)
  WHERE id = NEW.id;
END;

-- 1: a drawing indexed (at import, before its version exists: nothing to do), reindexed or dropped.
CREATE TRIGGER drawing_newest_insert AFTER INSERT ON drawing BEGIN
  UPDATE draft SET latest_strokes = NEW.stroke_count - NEW.hidden_count
    WHERE latest_version_id IN (SELECT id FROM version WHERE blob_id = NEW.blob_id);
END;

CREATE TRIGGER drawing_newest_update AFTER UPDATE OF blob_id, stroke_count, hidden_count ON drawing BEGIN
  UPDATE draft SET latest_strokes = NULL
    WHERE latest_version_id IN (SELECT id FROM version WHERE blob_id = OLD.blob_id);
  UPDATE draft SET latest_strokes = NEW.stroke_count - NEW.hidden_count
    WHERE latest_version_id IN (SELECT id FROM version WHERE blob_id = NEW.blob_id);
END;

CREATE TRIGGER drawing_newest_delete AFTER DELETE ON drawing BEGIN
  UPDATE draft SET latest_strokes = NULL
    WHERE latest_version_id IN (SELECT id FROM version WHERE blob_id = OLD.blob_id);
END;

-- 2: a drawing's ink rows written or dropped.
CREATE TRIGGER drawing_ink_newest_insert AFTER INSERT ON drawing_ink BEGIN
  UPDATE draft SET latest_inks = latest_inks | CASE NEW.ink WHEN 'pen' THEN 1 WHEN 'pencil' THEN 2 WHEN 'marker' THEN 4
      WHEN 'monoline' THEN 8 WHEN 'fountainpen' THEN 16 WHEN 'watercolor' THEN 32 WHEN 'crayon' THEN 64
      WHEN 'eraser' THEN 128 ELSE 256 END
    WHERE latest_version_id IN (SELECT id FROM version WHERE blob_id = NEW.blob_id);
END;

CREATE TRIGGER drawing_ink_newest_change AFTER UPDATE OF blob_id, ink ON drawing_ink BEGIN
  UPDATE draft SET latest_inks = coalesce((SELECT sum(DISTINCT CASE di.ink WHEN 'pen' THEN 1 WHEN 'pencil' THEN 2
        WHEN 'marker' THEN 4 WHEN 'monoline' THEN 8 WHEN 'fountainpen' THEN 16 WHEN 'watercolor' THEN 32
        WHEN 'crayon' THEN 64 WHEN 'eraser' THEN 128 ELSE 256 END)
      FROM version AS v JOIN drawing_ink AS di ON di.blob_id = v.blob_id WHERE v.id = draft.latest_version_id), 0)
    WHERE latest_version_id IN (SELECT id FROM version WHERE blob_id IN (OLD.blob_id, NEW.blob_id));
END;

CREATE TRIGGER drawing_ink_newest_delete AFTER DELETE ON drawing_ink BEGIN
  UPDATE draft SET latest_inks = coalesce((SELECT sum(DISTINCT CASE di.ink WHEN 'pen' THEN 1 WHEN 'pencil' THEN 2
        WHEN 'marker' THEN 4 WHEN 'monoline' THEN 8 WHEN 'fountainpen' THEN 16 WHEN 'watercolor' THEN 32
        WHEN 'crayon' THEN 64 WHEN 'eraser' THEN 128 ELSE 256 END)
      FROM version AS v JOIN drawing_ink AS di ON di.blob_id = v.blob_id WHERE v.id = draft.latest_version_id), 0)
    WHERE latest_version_id IN (SELECT id FROM version WHERE blob_id = OLD.blob_id);
END;

-- 1, 2: a version pointed at another blob. 3: versions added, removed or moved (0003's
-- triggers for first_saved_ms, replaced by ones that keep the import times as well).
CREATE TRIGGER version_newest_blob AFTER UPDATE OF blob_id ON version BEGIN
  UPDATE draft SET
    latest_strokes = (SELECT dr.stroke_count - dr.hidden_count FROM drawing AS dr WHERE dr.blob_id = NEW.blob_id),
    latest_inks = coalesce((SELECT sum(DISTINCT CASE di.ink WHEN 'pen' THEN 1 WHEN 'pencil' THEN 2 WHEN 'marker' THEN 4
        WHEN 'monoline' THEN 8 WHEN 'fountainpen' THEN 16 WHEN 'watercolor' THEN 32 WHEN 'crayon' THEN 64
        WHEN 'eraser' THEN 128 ELSE 256 END)
      FROM drawing_ink AS di WHERE di.blob_id = NEW.blob_id), 0)
    WHERE latest_version_id = NEW.id;
END;

DROP TRIGGER version_search_insert;
CREATE TRIGGER version_search_insert AFTER INSERT ON version BEGIN
  UPDATE draft SET first_saved_ms = min(coalesce(first_saved_ms, NEW.saved_ms), NEW.saved_ms),
    first_imported_ms = min(coalesce(first_imported_ms, NEW.imported_ms), NEW.imported_ms),
    latest_imported_ms = max(coalesce(latest_imported_ms, NEW.imported_ms), NEW.imported_ms)
    WHERE id = NEW.draft_id;
END;

DROP TRIGGER version_search_delete;
CREATE TRIGGER version_search_delete AFTER DELETE ON version BEGIN
  UPDATE draft SET first_saved_ms = (SELECT min(saved_ms) FROM version WHERE draft_id = OLD.draft_id),
    first_imported_ms = (SELECT min(imported_ms) FROM version WHERE draft_id = OLD.draft_id),
    latest_imported_ms = (SELECT max(imported_ms) FROM version WHERE draft_id = OLD.draft_id)
    WHERE id = OLD.draft_id;
END;

DROP TRIGGER version_search_move;
CREATE TRIGGER version_search_move AFTER UPDATE OF saved_ms, imported_ms, draft_id ON version BEGIN
  UPDATE draft SET first_saved_ms = (SELECT min(saved_ms) FROM version WHERE draft_id = draft.id),
    first_imported_ms = (SELECT min(imported_ms) FROM version WHERE draft_id = draft.id),
    latest_imported_ms = (SELECT max(imported_ms) FROM version WHERE draft_id = draft.id)
    WHERE id IN (OLD.draft_id, NEW.draft_id);
END;
