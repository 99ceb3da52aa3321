-- 0006: indexes that let newest-first searches stop early at a million drafts.
--
-- 1. draft_by_latest becomes covering for the name and "has versions" tests: a walk through
--    drafts newest first (SearchCompiler's walk) rejects non-matching names from the index
--    alone and reads a table row only for a match. `id` is in the key, before the tested
--    columns, so that the index order is exactly the sort order (latest, first, id) and
--    `ORDER BY … LIMIT` never needs a sort.
-- 2. span_class buckets a draft by how long it lived (newest save − first save): class c
--    holds spans below 2^c hours (c = 0…14), class 15 the rest. A period that ends at U
--    ("saved:2022", "saved:<2023") matches, newest first, the drafts that lived across U
--    before the drafts that ended inside the period; those are "first_saved_ms < U <=
--    latest_saved_ms", which no single sorted index lists. Within one class they lie in
--    latest ∈ [U, U + 2^c h) of draft_by_span, newest first, and most of that window
--    matches; so the newest 50 of each class are read from a short range of the index.
--
-- Invariant: span_class = the number of k in 0…14 with
--   latest_saved_ms − first_saved_ms >= 3600000 · 2^k (NULL for a draft without versions);
--   SearchCompiler.spanLimits holds the same thresholds.

ALTER TABLE draft ADD COLUMN span_class INTEGER GENERATED ALWAYS AS (
  (latest_saved_ms - first_saved_ms >= 3600000) + (latest_saved_ms - first_saved_ms >= 7200000)
  + (latest_saved_ms - first_saved_ms >= 14400000) + (latest_saved_ms - first_saved_ms >= 28800000)
  + (latest_saved_ms - first_saved_ms >= 57600000) + (latest_saved_ms - first_saved_ms >= 115200000)
  + (latest_saved_ms - first_saved_ms >= 230400000) + (latest_saved_ms - first_saved_ms >= 460800000)
  + (latest_saved_ms - first_saved_ms >= 921600000) + (latest_saved_ms - first_saved_ms >= 1843200000)
  + (latest_saved_ms - first_saved_ms >= 3686400000) + (latest_saved_ms - first_saved_ms >= 7372800000)
  + (latest_saved_ms - first_saved_ms >= 14745600000) + (latest_saved_ms - first_saved_ms >= 29491200000)
  + (latest_saved_ms - first_saved_ms >= 58982400000)
) VIRTUAL;

DROP INDEX draft_by_latest;
CREATE INDEX draft_by_latest ON draft(latest_saved_ms, first_saved_ms, id, version_count, name_folded);
CREATE INDEX draft_by_span ON draft(span_class, latest_saved_ms, first_saved_ms);
