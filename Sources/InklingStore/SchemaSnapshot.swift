// swift-format-ignore-file
// Generated from migrations/ by `INKLING_UPDATE_SCHEMA_SNAPSHOT=1 swift test --filter SchemaSnapshotTests`;
// do not edit. What the migrations create, so that opening an archive need not replay them
// (SchemaVerification.swift explains why and when it still does).

enum SchemaSnapshot {
  /// SchemaVerification.migrationsDigest of the migrations this was made from.
  static let migrationsDigest = "15ffc9b59aeb6d87643d6405834025ebf76a8ef52ba3f96261bfbbc7c537cde9"

  /// SchemaVerification.schemaStamp of the database the migrations create.
  static let schemaStamp = "f25b63cfb4c2164cdb7cb08c6494fbab5e43da436e9a3919abd64132ab7b9d0e"

  static let objects: [SchemaObject] = [
    SchemaObject(
      type: "table", name: "blob", table: "blob",
      sql: "CREATE TABLE blob(id INTEGER PRIMARY KEY,sha256 BLOB NOT NULL UNIQUE CHECK(length(sha256)= 32),size INTEGER NOT NULL,encoding INTEGER NOT NULL CHECK(encoding IN(0,1,2)),base_id INTEGER REFERENCES blob(id),depth INTEGER NOT NULL DEFAULT 0,data BLOB NOT NULL,layout INTEGER NOT NULL DEFAULT 0 CHECK(layout IN(0,1)),streams INTEGER NOT NULL DEFAULT 0 CHECK(streams IN(0,1)AND(streams = 0 OR layout = 1)),CHECK((encoding = 2)=(base_id IS NOT NULL)),CHECK(base_id IS NULL OR base_id <> id))"),
    SchemaObject(
      type: "index", name: "blob_by_base", table: "blob",
      sql: "CREATE INDEX blob_by_base ON blob(base_id)WHERE base_id IS NOT NULL"),
    SchemaObject(
      type: "table", name: "damaged_version", table: "damaged_version",
      sql: "CREATE TABLE damaged_version(version_id INTEGER PRIMARY KEY REFERENCES version(id)ON DELETE CASCADE,found_ms INTEGER NOT NULL)"),
    SchemaObject(
      type: "table", name: "draft", table: "draft",
      sql: "CREATE TABLE draft(id INTEGER PRIMARY KEY,name TEXT NOT NULL UNIQUE,created_ms INTEGER NOT NULL,version_count INTEGER NOT NULL DEFAULT 0,latest_saved_ms INTEGER,latest_version_id INTEGER,name_folded TEXT NOT NULL DEFAULT '',first_saved_ms INTEGER,span_class INTEGER GENERATED ALWAYS AS((latest_saved_ms - first_saved_ms >= 3600000)+(latest_saved_ms - first_saved_ms >= 7200000)+(latest_saved_ms - first_saved_ms >= 14400000)+(latest_saved_ms - first_saved_ms >= 28800000)+(latest_saved_ms - first_saved_ms >= 57600000)+(latest_saved_ms - first_saved_ms >= 115200000)+(latest_saved_ms - first_saved_ms >= 230400000)+(latest_saved_ms - first_saved_ms >= 460800000)+(latest_saved_ms - first_saved_ms >= 921600000)+(latest_saved_ms - first_saved_ms >= 1843200000)+(latest_saved_ms - first_saved_ms >= 3686400000)+(latest_saved_ms - first_saved_ms >= 7372800000)+(latest_saved_ms - first_saved_ms >= 14745600000)+(latest_saved_ms - first_saved_ms >= 29491200000)+(latest_saved_ms - first_saved_ms >= 58982400000))VIRTUAL,latest_strokes INTEGER,latest_inks INTEGER NOT NULL DEFAULT 0,first_imported_ms INTEGER,latest_imported_ms INTEGER,deleted_ms INTEGER,stars INTEGER CHECK(stars BETWEEN 1 AND 5))"),
    SchemaObject(
      type: "index", name: "draft_by_early_import", table: "draft",
      sql: "CREATE INDEX draft_by_early_import ON draft(latest_saved_ms,first_saved_ms,id)WHERE first_imported_ms < first_saved_ms AND deleted_ms IS NULL"),
    SchemaObject(
      type: "index", name: "draft_by_first", table: "draft",
      sql: "CREATE INDEX draft_by_first ON draft(first_saved_ms,latest_saved_ms)"),
    SchemaObject(
      type: "index", name: "draft_by_folded", table: "draft",
      sql: "CREATE INDEX draft_by_folded ON draft(name_folded)"),
    SchemaObject(
      type: "index", name: "draft_by_latest", table: "draft",
      sql: "CREATE INDEX draft_by_latest ON draft(latest_saved_ms,first_saved_ms,id,version_count,name_folded,latest_strokes,latest_inks,first_imported_ms,latest_imported_ms)WHERE deleted_ms IS NULL"),
    SchemaObject(
      type: "index", name: "draft_by_latest_version", table: "draft",
      sql: "CREATE INDEX draft_by_latest_version ON draft(latest_version_id)"),
    SchemaObject(
      type: "index", name: "draft_by_span", table: "draft",
      sql: "CREATE INDEX draft_by_span ON draft(span_class,latest_saved_ms,first_saved_ms)WHERE deleted_ms IS NULL"),
    SchemaObject(
      type: "index", name: "draft_by_stars", table: "draft",
      sql: "CREATE INDEX draft_by_stars ON draft(stars,latest_saved_ms,id)WHERE stars IS NOT NULL AND deleted_ms IS NULL"),
    SchemaObject(
      type: "index", name: "draft_by_versions", table: "draft",
      sql: "CREATE INDEX draft_by_versions ON draft(version_count)"),
    SchemaObject(
      type: "index", name: "draft_in_trash", table: "draft",
      sql: "CREATE INDEX draft_in_trash ON draft(deleted_ms)WHERE deleted_ms IS NOT NULL"),
    SchemaObject(
      type: "trigger", name: "draft_newest_drawing", table: "draft",
      sql: "CREATE TRIGGER draft_newest_drawing AFTER UPDATE OF latest_version_id ON draft WHEN NEW.latest_version_id IS NOT OLD.latest_version_id BEGIN INSERT INTO refresh_newest_drawing(draft_id)VALUES(NEW.id); END"),
    SchemaObject(
      type: "trigger", name: "draft_newest_drawing_insert", table: "draft",
      sql: "CREATE TRIGGER draft_newest_drawing_insert AFTER INSERT ON draft WHEN NEW.latest_version_id IS NOT NULL BEGIN INSERT INTO refresh_newest_drawing(draft_id)VALUES(NEW.id); END"),
    SchemaObject(
      type: "trigger", name: "draft_search_delete", table: "draft",
      sql: "CREATE TRIGGER draft_search_delete AFTER DELETE ON draft BEGIN DELETE FROM name_gram WHERE draft_id = OLD.id AND gram IN(SELECT substr(OLD.name_folded || char(1,1),i,3)FROM search_position WHERE i <= length(OLD.name_folded)); END"),
    SchemaObject(
      type: "trigger", name: "draft_search_insert", table: "draft",
      sql: "CREATE TRIGGER draft_search_insert AFTER INSERT ON draft BEGIN SELECT RAISE(ABORT,'a draft name is at most 4096 characters')WHERE length(inkling_fold(NEW.name))> 4096; UPDATE draft SET name_folded = inkling_fold(NEW.name)WHERE id = NEW.id; INSERT OR IGNORE INTO name_gram(gram,draft_id)SELECT substr(d.name_folded || char(1,1),p.i,3),d.id FROM draft d JOIN search_position p ON p.i <= length(d.name_folded)WHERE d.id = NEW.id; END"),
    SchemaObject(
      type: "trigger", name: "draft_search_rename", table: "draft",
      sql: "CREATE TRIGGER draft_search_rename AFTER UPDATE OF name ON draft WHEN NEW.name IS NOT OLD.name BEGIN SELECT RAISE(ABORT,'a draft name is at most 4096 characters')WHERE length(inkling_fold(NEW.name))> 4096; DELETE FROM name_gram WHERE draft_id = OLD.id AND gram IN(SELECT substr(OLD.name_folded || char(1,1),i,3)FROM search_position WHERE i <= length(OLD.name_folded)); UPDATE draft SET name_folded = inkling_fold(NEW.name)WHERE id = NEW.id; INSERT OR IGNORE INTO name_gram(gram,draft_id)SELECT substr(d.name_folded || char(1,1),p.i,3),d.id FROM draft d JOIN search_position p ON p.i <= length(d.name_folded)WHERE d.id = NEW.id; END"),
    SchemaObject(
      type: "table", name: "draft_tag", table: "draft_tag",
      sql: "CREATE TABLE draft_tag(draft_id INTEGER NOT NULL REFERENCES draft(id)ON DELETE CASCADE,tag_id INTEGER NOT NULL REFERENCES tag(id),PRIMARY KEY(draft_id,tag_id))WITHOUT ROWID"),
    SchemaObject(
      type: "index", name: "draft_tag_by_tag", table: "draft_tag",
      sql: "CREATE INDEX draft_tag_by_tag ON draft_tag(tag_id,draft_id)"),
    SchemaObject(
      type: "table", name: "drawing", table: "drawing",
      sql: "CREATE TABLE drawing(blob_id INTEGER PRIMARY KEY REFERENCES blob(id),status INTEGER NOT NULL CHECK(status IN(0,1,2)),problem TEXT,format_version INTEGER,stroke_count INTEGER NOT NULL DEFAULT 0,hidden_count INTEGER NOT NULL DEFAULT 0,point_count INTEGER NOT NULL DEFAULT 0,bounds_x REAL,bounds_y REAL,bounds_width REAL,bounds_height REAL,first_point_s REAL,last_point_s REAL,max_ink_version INTEGER,content_hash BLOB,strokes BLOB NOT NULL DEFAULT x'')"),
    SchemaObject(
      type: "index", name: "drawing_by_strokes", table: "drawing",
      sql: "CREATE INDEX drawing_by_strokes ON drawing(stroke_count - hidden_count)"),
    SchemaObject(
      type: "table", name: "drawing_ink", table: "drawing_ink",
      sql: "CREATE TABLE drawing_ink(blob_id INTEGER NOT NULL REFERENCES blob(id),ink TEXT NOT NULL,stroke_count INTEGER NOT NULL,PRIMARY KEY(blob_id,ink))WITHOUT ROWID"),
    SchemaObject(
      type: "index", name: "drawing_ink_by_ink", table: "drawing_ink",
      sql: "CREATE INDEX drawing_ink_by_ink ON drawing_ink(ink)"),
    SchemaObject(
      type: "trigger", name: "drawing_ink_newest_change", table: "drawing_ink",
      sql: "CREATE TRIGGER drawing_ink_newest_change AFTER UPDATE OF blob_id,ink ON drawing_ink BEGIN INSERT INTO refresh_newest_drawing(draft_id)SELECT draft_id FROM newest_version_blob WHERE blob_id IN(OLD.blob_id,NEW.blob_id); END"),
    SchemaObject(
      type: "trigger", name: "drawing_ink_newest_delete", table: "drawing_ink",
      sql: "CREATE TRIGGER drawing_ink_newest_delete AFTER DELETE ON drawing_ink WHEN EXISTS(SELECT 1 FROM drawing WHERE blob_id = OLD.blob_id)BEGIN INSERT INTO refresh_newest_drawing(draft_id)SELECT draft_id FROM newest_version_blob WHERE blob_id = OLD.blob_id; END"),
    SchemaObject(
      type: "trigger", name: "drawing_ink_newest_insert", table: "drawing_ink",
      sql: "CREATE TRIGGER drawing_ink_newest_insert AFTER INSERT ON drawing_ink WHEN EXISTS(SELECT 1 FROM drawing WHERE blob_id = NEW.blob_id)BEGIN INSERT INTO refresh_newest_drawing(draft_id)SELECT draft_id FROM newest_version_blob WHERE blob_id = NEW.blob_id; END"),
    SchemaObject(
      type: "trigger", name: "drawing_newest_delete", table: "drawing",
      sql: "CREATE TRIGGER drawing_newest_delete AFTER DELETE ON drawing BEGIN INSERT INTO refresh_newest_drawing(draft_id)SELECT draft_id FROM newest_version_blob WHERE blob_id = OLD.blob_id; END"),
    SchemaObject(
      type: "trigger", name: "drawing_newest_insert", table: "drawing",
      sql: "CREATE TRIGGER drawing_newest_insert AFTER INSERT ON drawing WHEN EXISTS(SELECT 1 FROM newest_version_blob WHERE blob_id = NEW.blob_id)BEGIN INSERT INTO refresh_newest_drawing(draft_id)SELECT draft_id FROM newest_version_blob WHERE blob_id = NEW.blob_id; END"),
    SchemaObject(
      type: "trigger", name: "drawing_newest_update", table: "drawing",
      sql: "CREATE TRIGGER drawing_newest_update AFTER UPDATE OF blob_id,stroke_count,hidden_count ON drawing BEGIN INSERT INTO refresh_newest_drawing(draft_id)SELECT draft_id FROM newest_version_blob WHERE blob_id IN(OLD.blob_id,NEW.blob_id); END"),
    SchemaObject(
      type: "table", name: "envelope", table: "envelope",
      sql: "CREATE TABLE envelope(id INTEGER PRIMARY KEY,sha256 BLOB NOT NULL UNIQUE,text BLOB NOT NULL,drawing_offset INTEGER NOT NULL,base64_style INTEGER NOT NULL CHECK(base64_style IN(0,1,2)),base64_text BLOB,CHECK((base64_style = 2)=(base64_text IS NOT NULL)))"),
    SchemaObject(
      type: "table", name: "import_problem", table: "import_problem",
      sql: "CREATE TABLE import_problem(run_id INTEGER NOT NULL REFERENCES import_run(id),path TEXT NOT NULL,reason TEXT NOT NULL)"),
    SchemaObject(
      type: "index", name: "import_problem_by_run", table: "import_problem",
      sql: "CREATE INDEX import_problem_by_run ON import_problem(run_id)"),
    SchemaObject(
      type: "table", name: "import_run", table: "import_run",
      sql: "CREATE TABLE import_run(id INTEGER PRIMARY KEY,started_ms INTEGER NOT NULL,finished_ms INTEGER,versions_imported INTEGER NOT NULL DEFAULT 0,drafts_created INTEGER NOT NULL DEFAULT 0,already_archived INTEGER NOT NULL DEFAULT 0,ignored INTEGER NOT NULL DEFAULT 0,rejected INTEGER NOT NULL DEFAULT 0,bytes_read INTEGER NOT NULL DEFAULT 0)"),
    SchemaObject(
      type: "table", name: "ink", table: "ink",
      sql: "CREATE TABLE ink(id INTEGER PRIMARY KEY,name TEXT NOT NULL,color_r REAL NOT NULL,color_g REAL NOT NULL,color_b REAL NOT NULL,color_a REAL NOT NULL,UNIQUE(name,color_r,color_g,color_b,color_a))"),
    SchemaObject(
      type: "table", name: "name_gram", table: "name_gram",
      sql: "CREATE TABLE name_gram(gram TEXT NOT NULL,draft_id INTEGER NOT NULL,PRIMARY KEY(gram,draft_id))WITHOUT ROWID"),
    SchemaObject(
      type: "view", name: "newest_version_blob", table: "newest_version_blob",
      sql: "CREATE VIEW newest_version_blob(draft_id,blob_id)AS SELECT draft.id,version.blob_id FROM draft JOIN version ON version.id = draft.latest_version_id"),
    SchemaObject(
      type: "table", name: "note", table: "note",
      sql: "CREATE TABLE note(id INTEGER PRIMARY KEY,draft_id INTEGER NOT NULL REFERENCES draft(id)ON DELETE CASCADE,version_id INTEGER REFERENCES version(id)ON DELETE CASCADE,text TEXT NOT NULL CHECK(length(text)BETWEEN 1 AND 65536),text_folded TEXT NOT NULL GENERATED ALWAYS AS(inkling_fold(text))STORED,written_ms INTEGER NOT NULL)"),
    SchemaObject(
      type: "index", name: "note_by_draft", table: "note",
      sql: "CREATE INDEX note_by_draft ON note(draft_id,version_id)"),
    SchemaObject(
      type: "index", name: "note_by_version", table: "note",
      sql: "CREATE INDEX note_by_version ON note(version_id)WHERE version_id IS NOT NULL"),
    SchemaObject(
      type: "view", name: "refresh_newest_drawing", table: "refresh_newest_drawing",
      sql: "CREATE VIEW refresh_newest_drawing(draft_id)AS SELECT id FROM draft WHERE 0"),
    SchemaObject(
      type: "trigger", name: "refresh_newest_drawing_instead", table: "refresh_newest_drawing",
      sql: "CREATE TRIGGER refresh_newest_drawing_instead INSTEAD OF INSERT ON refresh_newest_drawing BEGIN UPDATE draft SET latest_strokes =(SELECT visible_strokes FROM version_drawing_summary WHERE version_id = draft.latest_version_id),latest_inks = coalesce((SELECT ink_bits FROM version_drawing_summary WHERE version_id = draft.latest_version_id),0)WHERE id = NEW.draft_id; END"),
    SchemaObject(
      type: "table", name: "saved_search", table: "saved_search",
      sql: "CREATE TABLE saved_search(id INTEGER PRIMARY KEY,name TEXT NOT NULL CHECK(length(name)BETWEEN 1 AND 256),name_folded TEXT NOT NULL GENERATED ALWAYS AS(inkling_fold(name))STORED,query TEXT NOT NULL,saved_ms INTEGER NOT NULL)"),
    SchemaObject(
      type: "index", name: "saved_search_by_name", table: "saved_search",
      sql: "CREATE UNIQUE INDEX saved_search_by_name ON saved_search(name_folded)"),
    SchemaObject(
      type: "table", name: "search_position", table: "search_position",
      sql: "CREATE TABLE search_position(i INTEGER PRIMARY KEY)"),
    SchemaObject(
      type: "table", name: "source", table: "source",
      sql: "CREATE TABLE source(id INTEGER PRIMARY KEY,label TEXT NOT NULL UNIQUE,label_folded TEXT NOT NULL GENERATED ALWAYS AS(inkling_fold(label))STORED)"),
    SchemaObject(
      type: "index", name: "sqlite_autoindex_blob_1", table: "blob",
      sql: nil),
    SchemaObject(
      type: "index", name: "sqlite_autoindex_draft_1", table: "draft",
      sql: nil),
    SchemaObject(
      type: "index", name: "sqlite_autoindex_envelope_1", table: "envelope",
      sql: nil),
    SchemaObject(
      type: "index", name: "sqlite_autoindex_ink_1", table: "ink",
      sql: nil),
    SchemaObject(
      type: "index", name: "sqlite_autoindex_source_1", table: "source",
      sql: nil),
    SchemaObject(
      type: "index", name: "sqlite_autoindex_thumbnail_1", table: "thumbnail",
      sql: nil),
    SchemaObject(
      type: "index", name: "sqlite_autoindex_version_1", table: "version",
      sql: nil),
    SchemaObject(
      type: "table", name: "stroke", table: "stroke",
      sql: "CREATE TABLE stroke(id INTEGER PRIMARY KEY,ink_id INTEGER NOT NULL REFERENCES ink(id),hidden INTEGER NOT NULL,point_count INTEGER NOT NULL,bounds_x REAL,bounds_y REAL,bounds_width REAL,bounds_height REAL,created_s REAL,uuid BLOB,fingerprint BLOB NOT NULL)"),
    SchemaObject(
      type: "table", name: "tag", table: "tag",
      sql: "CREATE TABLE tag(id INTEGER PRIMARY KEY,name TEXT NOT NULL CHECK(length(name)BETWEEN 1 AND 256),name_folded TEXT NOT NULL GENERATED ALWAYS AS(inkling_fold(name))STORED)"),
    SchemaObject(
      type: "index", name: "tag_by_folded", table: "tag",
      sql: "CREATE UNIQUE INDEX tag_by_folded ON tag(name_folded)"),
    SchemaObject(
      type: "table", name: "thumbnail", table: "thumbnail",
      sql: "CREATE TABLE thumbnail(id INTEGER PRIMARY KEY,key BLOB NOT NULL UNIQUE CHECK(length(key)= 32),content_hash BLOB,background_r REAL NOT NULL,background_g REAL NOT NULL,background_b REAL NOT NULL,background_a REAL NOT NULL,pixel_size INTEGER NOT NULL CHECK(pixel_size > 0),renderer_version INTEGER NOT NULL,png BLOB NOT NULL,byte_size INTEGER NOT NULL,created_ms INTEGER NOT NULL)"),
    SchemaObject(
      type: "table", name: "version", table: "version",
      sql: "CREATE TABLE version(id INTEGER PRIMARY KEY,draft_id INTEGER NOT NULL REFERENCES draft(id),saved_ms INTEGER NOT NULL,saved_source TEXT NOT NULL CHECK(saved_source IN('stamp','mtime')),imported_ms INTEGER NOT NULL,file_name TEXT NOT NULL,file_sha256 BLOB NOT NULL CHECK(length(file_sha256)= 32),file_size INTEGER NOT NULL,file_mtime_ns INTEGER NOT NULL,blob_id INTEGER NOT NULL REFERENCES blob(id),envelope_id INTEGER NOT NULL REFERENCES envelope(id),background_r REAL NOT NULL,background_g REAL NOT NULL,background_b REAL NOT NULL,background_a REAL NOT NULL,reverts_version_id INTEGER REFERENCES version(id),UNIQUE(draft_id,saved_ms,file_sha256))"),
    SchemaObject(
      type: "index", name: "version_by_blob", table: "version",
      sql: "CREATE INDEX version_by_blob ON version(blob_id)"),
    SchemaObject(
      type: "index", name: "version_by_draft", table: "version",
      sql: "CREATE INDEX version_by_draft ON version(draft_id,saved_ms)"),
    SchemaObject(
      type: "index", name: "version_by_envelope", table: "version",
      sql: "CREATE INDEX version_by_envelope ON version(envelope_id)"),
    SchemaObject(
      type: "index", name: "version_by_imported_draft", table: "version",
      sql: "CREATE INDEX version_by_imported_draft ON version(imported_ms,draft_id)"),
    SchemaObject(
      type: "index", name: "version_by_reverted", table: "version",
      sql: "CREATE INDEX version_by_reverted ON version(reverts_version_id)WHERE reverts_version_id IS NOT NULL"),
    SchemaObject(
      type: "index", name: "version_by_saved_draft", table: "version",
      sql: "CREATE INDEX version_by_saved_draft ON version(saved_ms,draft_id)"),
    SchemaObject(
      type: "view", name: "version_drawing_summary", table: "version_drawing_summary",
      sql: "CREATE VIEW version_drawing_summary(version_id,visible_strokes,ink_bits)AS SELECT v.id,dr.stroke_count - dr.hidden_count,CASE WHEN dr.blob_id IS NULL THEN 0 ELSE coalesce((SELECT sum(DISTINCT inkling_ink_bit(di.ink))FROM drawing_ink AS di WHERE di.blob_id = v.blob_id),0)END FROM version AS v LEFT JOIN drawing AS dr ON dr.blob_id = v.blob_id"),
    SchemaObject(
      type: "table", name: "version_label", table: "version_label",
      sql: "CREATE TABLE version_label(id INTEGER PRIMARY KEY,version_id INTEGER NOT NULL REFERENCES version(id)ON DELETE CASCADE,draft_id INTEGER NOT NULL REFERENCES draft(id)ON DELETE CASCADE,name TEXT NOT NULL CHECK(length(name)BETWEEN 1 AND 256),name_folded TEXT NOT NULL GENERATED ALWAYS AS(inkling_fold(name))STORED,CHECK(name GLOB '*[^0-9]*'))"),
    SchemaObject(
      type: "index", name: "version_label_by_draft", table: "version_label",
      sql: "CREATE UNIQUE INDEX version_label_by_draft ON version_label(draft_id,name_folded)"),
    SchemaObject(
      type: "index", name: "version_label_by_name", table: "version_label",
      sql: "CREATE INDEX version_label_by_name ON version_label(name_folded,draft_id)"),
    SchemaObject(
      type: "index", name: "version_label_by_version", table: "version_label",
      sql: "CREATE INDEX version_label_by_version ON version_label(version_id)"),
    SchemaObject(
      type: "trigger", name: "version_newest_blob", table: "version",
      sql: "CREATE TRIGGER version_newest_blob AFTER UPDATE OF blob_id ON version BEGIN INSERT INTO refresh_newest_drawing(draft_id)SELECT id FROM draft WHERE latest_version_id = NEW.id; END"),
    SchemaObject(
      type: "trigger", name: "version_search_delete", table: "version",
      sql: "CREATE TRIGGER version_search_delete AFTER DELETE ON version BEGIN UPDATE draft SET first_saved_ms =(SELECT min(saved_ms)FROM version WHERE draft_id = OLD.draft_id),first_imported_ms =(SELECT min(imported_ms)FROM version WHERE draft_id = OLD.draft_id),latest_imported_ms =(SELECT max(imported_ms)FROM version WHERE draft_id = OLD.draft_id)WHERE id = OLD.draft_id; END"),
    SchemaObject(
      type: "trigger", name: "version_search_move", table: "version",
      sql: "CREATE TRIGGER version_search_move AFTER UPDATE OF saved_ms,imported_ms,draft_id ON version BEGIN UPDATE draft SET first_saved_ms =(SELECT min(saved_ms)FROM version WHERE draft_id = draft.id),first_imported_ms =(SELECT min(imported_ms)FROM version WHERE draft_id = draft.id),latest_imported_ms =(SELECT max(imported_ms)FROM version WHERE draft_id = draft.id)WHERE id IN(OLD.draft_id,NEW.draft_id); END"),
    SchemaObject(
      type: "table", name: "version_source", table: "version_source",
      sql: "CREATE TABLE version_source(version_id INTEGER NOT NULL REFERENCES version(id)ON DELETE CASCADE,source_id INTEGER NOT NULL REFERENCES source(id),path TEXT NOT NULL,run_id INTEGER NOT NULL REFERENCES import_run(id),PRIMARY KEY(version_id,source_id))WITHOUT ROWID"),
    SchemaObject(
      type: "index", name: "version_source_by_path", table: "version_source",
      sql: "CREATE INDEX version_source_by_path ON version_source(path)"),
    SchemaObject(
      type: "index", name: "version_source_by_source", table: "version_source",
      sql: "CREATE INDEX version_source_by_source ON version_source(source_id,version_id)"),
  ]
}
