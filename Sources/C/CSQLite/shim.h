#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type inkling_sqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call; these wrap the forms we use.
static inline int inkling_sqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
  return sqlite3_db_config(db, op, value, result);
}
