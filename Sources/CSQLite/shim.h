#ifndef BINDERY_CSQLITE_SHIM_H
#define BINDERY_CSQLITE_SHIM_H
#include <sqlite3.h>

/*
 * SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot
 * import: these helpers bind text that SQLite copies before the call returns.
 */
static inline int bindery_sqlite_bind_text(sqlite3_stmt *statement, int index, const char *text) {
    return sqlite3_bind_text(statement, index, text, -1, SQLITE_TRANSIENT);
}

#endif
