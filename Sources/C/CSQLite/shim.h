#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type inkling_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call; these wrap the forms we use.
static inline int inkling_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
  return sqlite3_db_config(db, op, value, result);
}

// Process-wide settings, which SQLite accepts only before it initialises (sqlite3_config is
// variadic too). Memory statistics take a global mutex around every allocation SQLite makes,
// in every connection and thread; nothing here reads them, and the drawing index makes
// hundreds of thousands of allocations per import (docs/decisions.md, "The drawing index
// costs at most 15 % of an import").
static inline int inkling_sqlite_configure(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
