#ifndef PUSHNODE_WAL_BUFFER_H
#define PUSHNODE_WAL_BUFFER_H

/* The name of the SQLite VFS that `pushnode_wal_buffer_register` adds: the default VFS, except
 * that a WAL file's writes are gathered and written with one write(2) per commit (see
 * wal_buffer.c). */
#define PUSHNODE_WAL_BUFFER_VFS "pushnode-walbuffer"

/* Registers the VFS (once; later calls return the first call's result). SQLITE_OK, or SQLite's
 * error code. Thread-safe. */
int pushnode_wal_buffer_register(void);

#endif
