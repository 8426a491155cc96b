#ifndef PUSHNODE_CSQLITE_SHIM_H
#define PUSHNODE_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer. */
static inline int pushnode_sqlite3_bind_text_transient(sqlite3_stmt *s, int i, const char *t, int n) { return sqlite3_bind_text(s, i, t, n, SQLITE_TRANSIENT); }
static inline int pushnode_sqlite3_bind_blob_transient(sqlite3_stmt *s, int i, const void *b, int n) { return sqlite3_bind_blob(s, i, b, n, SQLITE_TRANSIENT); }
#endif
