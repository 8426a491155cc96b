/* A VFS over SQLite's default one that writes a commit's WAL frames with one write(2).
 *
 * SQLite appends each WAL frame as two writes, its 24-byte header and its page: a Notify's commit
 * of 9 pages was 18 pwrite(2) calls, the largest share of the commit's CPU after the B-tree work.
 * This VFS keeps a WAL file's contiguous appends in a buffer and writes them at once:
 *
 *   - when the frame that completes a commit is written (its header carries the database size
 *     after the commit, non-zero only there), so the commit's frames are in the file (the OS page
 *     cache) before `sqlite3_step` of the COMMIT returns, as with the default VFS: a `kill -9`
 *     after the answer loses nothing, and a write error (a full disk) fails the commit itself;
 *   - before anything else touches the WAL file: a write elsewhere than at the buffer's end, a
 *     read, a sync, a truncate, a size query, a file control, closing it;
 *   - when the buffer would grow past `BUFFER_LIMIT` (just under 128 KiB: 31 frames of 4 KiB pages).
 *
 * Readers find a commit's frames through the WAL index, which SQLite updates after the commit's
 * last frame is written, so they never see frames still in a buffer. Files other than WAL files
 * pass straight through to the default VFS. */
#include "wal_buffer.h"

#include <sqlite3.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The default VFS writes at most 0x1ffff bytes a call (its `seekAndWriteFd` masks the count to
 * 17 bits): a larger buffer is written in parts of up to this size. */
enum { BUFFER_LIMIT = 0x1ffff, FRAME_HEADER = 24, WAL_HEADER = 32 };

typedef struct BufferedFile {
    sqlite3_file base;
    sqlite3_file *real;      /* the default VFS's file, allocated right after this struct */
    int isWAL;
    unsigned char *buffer;   /* WAL only: appends not yet written */
    int length;
    int capacity;
    sqlite3_int64 offset;    /* where buffer[0] goes in the file */
    int commitNext;          /* the last write was the header of a commit frame */
} BufferedFile;

static sqlite3_vfs *parent;
static sqlite3_vfs vfs;
static sqlite3_io_methods methods;
static int registered = SQLITE_ERROR;
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define REAL(file) (((BufferedFile *)(file))->real)

/* Writes the buffered appends with one call to the default VFS. */
static int flush(BufferedFile *file) {
    if (file->length == 0) return SQLITE_OK;
    int length = file->length;
    file->length = 0;
    return file->real->pMethods->xWrite(file->real, file->buffer, length, file->offset);
}

static int bufferedClose(sqlite3_file *f) {
    BufferedFile *file = (BufferedFile *)f;
    int rc = flush(file);
    int closed = file->real->pMethods ? file->real->pMethods->xClose(file->real) : SQLITE_OK;
    free(file->buffer);
    file->buffer = NULL;
    return rc != SQLITE_OK ? rc : closed;
}

static int bufferedRead(sqlite3_file *f, void *data, int amount, sqlite3_int64 offset) {
    int rc = flush((BufferedFile *)f);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xRead(REAL(f), data, amount, offset);
}

/* Makes room for `needed` bytes (at most BUFFER_LIMIT); false when memory ran out. */
static int reserve(BufferedFile *file, int needed) {
    if (needed <= file->capacity) return 1;
    int capacity = file->capacity ? file->capacity : 32 * 1024;
    while (capacity < needed) capacity *= 2;
    if (capacity > BUFFER_LIMIT) capacity = BUFFER_LIMIT;
    unsigned char *grown = realloc(file->buffer, (size_t)capacity);
    if (grown == NULL) return 0;
    file->buffer = grown;
    file->capacity = capacity;
    return 1;
}

static int bufferedWrite(sqlite3_file *f, const void *data, int amount, sqlite3_int64 offset) {
    BufferedFile *file = (BufferedFile *)f;
    if (!file->isWAL) return file->real->pMethods->xWrite(file->real, data, amount, offset);
    int rc;
    if (file->length > 0 && (offset != file->offset + file->length || file->length + amount > BUFFER_LIMIT)) {
        if ((rc = flush(file)) != SQLITE_OK) return rc;
    }
    if (amount > BUFFER_LIMIT || !reserve(file, file->length + amount)) {
        if ((rc = flush(file)) != SQLITE_OK) return rc;
        file->commitNext = 0;
        return file->real->pMethods->xWrite(file->real, data, amount, offset);
    }
    if (file->length == 0) file->offset = offset;
    memcpy(file->buffer + file->length, data, (size_t)amount);
    file->length += amount;
    if (amount == FRAME_HEADER && offset >= WAL_HEADER) {
        /* A frame header: bytes 4-7 hold the database size after the commit, for a commit's last
         * frame only (page sizes are 512 bytes or more, so no other write of the WAL is 24 bytes). */
        const unsigned char *header = data;
        file->commitNext = (header[4] | header[5] | header[6] | header[7]) != 0;
        return SQLITE_OK;
    }
    if (file->commitNext) {
        file->commitNext = 0;
        return flush(file);
    }
    return SQLITE_OK;
}

static int bufferedTruncate(sqlite3_file *f, sqlite3_int64 size) {
    int rc = flush((BufferedFile *)f);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int bufferedSync(sqlite3_file *f, int flags) {
    int rc = flush((BufferedFile *)f);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int bufferedFileSize(sqlite3_file *f, sqlite3_int64 *size) {
    int rc = flush((BufferedFile *)f);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int bufferedFileControl(sqlite3_file *f, int op, void *argument) {
    int rc = flush((BufferedFile *)f);
    if (rc != SQLITE_OK) return rc;
    return REAL(f)->pMethods->xFileControl(REAL(f), op, argument);
}

static int bufferedLock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xLock(REAL(f), level); }
static int bufferedUnlock(sqlite3_file *f, int level) { return REAL(f)->pMethods->xUnlock(REAL(f), level); }
static int bufferedCheckReservedLock(sqlite3_file *f, int *out) {
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}
static int bufferedSectorSize(sqlite3_file *f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int bufferedDeviceCharacteristics(sqlite3_file *f) {
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}
/* The shared-memory and memory-mapping methods, where the default VFS's file has them (its
 * methods' version 2 and 3); without them SQLite is told there is no shared memory or mapping. */
#define HAS(file, version) (REAL(file)->pMethods->iVersion >= (version))
static int bufferedShmMap(sqlite3_file *f, int region, int size, int extend, void volatile **out) {
    if (!HAS(f, 2)) return SQLITE_IOERR_SHMMAP;
    return REAL(f)->pMethods->xShmMap(REAL(f), region, size, extend, out);
}
static int bufferedShmLock(sqlite3_file *f, int offset, int n, int flags) {
    if (!HAS(f, 2)) return SQLITE_IOERR_SHMLOCK;
    return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags);
}
static void bufferedShmBarrier(sqlite3_file *f) {
    if (HAS(f, 2)) REAL(f)->pMethods->xShmBarrier(REAL(f));
}
static int bufferedShmUnmap(sqlite3_file *f, int delete) {
    if (!HAS(f, 2)) return SQLITE_OK;
    return REAL(f)->pMethods->xShmUnmap(REAL(f), delete);
}
static int bufferedFetch(sqlite3_file *f, sqlite3_int64 offset, int amount, void **out) {
    if (!HAS(f, 3)) {
        *out = NULL;
        return SQLITE_OK;
    }
    return REAL(f)->pMethods->xFetch(REAL(f), offset, amount, out);
}
static int bufferedUnfetch(sqlite3_file *f, sqlite3_int64 offset, void *page) {
    if (!HAS(f, 3)) return SQLITE_OK;
    return REAL(f)->pMethods->xUnfetch(REAL(f), offset, page);
}

static int bufferedOpen(sqlite3_vfs *self, const char *name, sqlite3_file *f, int flags, int *outFlags) {
    (void)self;
    BufferedFile *file = (BufferedFile *)f;
    memset(file, 0, sizeof *file);
    file->real = (sqlite3_file *)(file + 1);
    int rc = parent->xOpen(parent, name, file->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        /* SQLite calls xClose only when pMethods is set: let the default VFS's file clean up. */
        if (file->real->pMethods) file->real->pMethods->xClose(file->real);
        return rc;
    }
    file->isWAL = (flags & SQLITE_OPEN_WAL) != 0;
    file->base.pMethods = &methods;
    return SQLITE_OK;
}

static int vfsDelete(sqlite3_vfs *self, const char *name, int syncDir) {
    (void)self;
    return parent->xDelete(parent, name, syncDir);
}
static int vfsAccess(sqlite3_vfs *self, const char *name, int flags, int *out) {
    (void)self;
    return parent->xAccess(parent, name, flags, out);
}
static int vfsFullPathname(sqlite3_vfs *self, const char *name, int size, char *out) {
    (void)self;
    return parent->xFullPathname(parent, name, size, out);
}
static void *vfsDlOpen(sqlite3_vfs *self, const char *name) {
    (void)self;
    return parent->xDlOpen(parent, name);
}
static void vfsDlError(sqlite3_vfs *self, int size, char *out) {
    (void)self;
    parent->xDlError(parent, size, out);
}
static void (*vfsDlSym(sqlite3_vfs *self, void *handle, const char *symbol))(void) {
    (void)self;
    return parent->xDlSym(parent, handle, symbol);
}
static void vfsDlClose(sqlite3_vfs *self, void *handle) {
    (void)self;
    parent->xDlClose(parent, handle);
}
static int vfsRandomness(sqlite3_vfs *self, int size, char *out) {
    (void)self;
    return parent->xRandomness(parent, size, out);
}
static int vfsSleep(sqlite3_vfs *self, int microseconds) {
    (void)self;
    return parent->xSleep(parent, microseconds);
}
static int vfsCurrentTime(sqlite3_vfs *self, double *out) {
    (void)self;
    return parent->xCurrentTime(parent, out);
}
static int vfsGetLastError(sqlite3_vfs *self, int size, char *out) {
    (void)self;
    return parent->xGetLastError ? parent->xGetLastError(parent, size, out) : 0;
}
static int vfsCurrentTimeInt64(sqlite3_vfs *self, sqlite3_int64 *out) {
    (void)self;
    return parent->xCurrentTimeInt64(parent, out);
}

static void registerOnce(void) {
    parent = sqlite3_vfs_find(NULL);
    if (parent == NULL || parent->iVersion < 2) return;
    methods = (sqlite3_io_methods){
        .iVersion = 3,
        .xClose = bufferedClose, .xRead = bufferedRead, .xWrite = bufferedWrite, .xTruncate = bufferedTruncate,
        .xSync = bufferedSync, .xFileSize = bufferedFileSize, .xLock = bufferedLock, .xUnlock = bufferedUnlock,
        .xCheckReservedLock = bufferedCheckReservedLock, .xFileControl = bufferedFileControl,
        .xSectorSize = bufferedSectorSize, .xDeviceCharacteristics = bufferedDeviceCharacteristics,
        .xShmMap = bufferedShmMap, .xShmLock = bufferedShmLock, .xShmBarrier = bufferedShmBarrier,
        .xShmUnmap = bufferedShmUnmap, .xFetch = bufferedFetch, .xUnfetch = bufferedUnfetch,
    };
    vfs = (sqlite3_vfs){
        .iVersion = 2, .szOsFile = (int)sizeof(BufferedFile) + parent->szOsFile, .mxPathname = parent->mxPathname,
        .zName = PUSHNODE_WAL_BUFFER_VFS, .xOpen = bufferedOpen, .xDelete = vfsDelete, .xAccess = vfsAccess,
        .xFullPathname = vfsFullPathname, .xDlOpen = vfsDlOpen, .xDlError = vfsDlError, .xDlSym = vfsDlSym,
        .xDlClose = vfsDlClose, .xRandomness = vfsRandomness, .xSleep = vfsSleep, .xCurrentTime = vfsCurrentTime,
        .xGetLastError = vfsGetLastError, .xCurrentTimeInt64 = vfsCurrentTimeInt64,
    };
    registered = sqlite3_vfs_register(&vfs, 0);
}

int pushnode_wal_buffer_register(void) {
    pthread_once(&once, registerOnce);
    return registered;
}
