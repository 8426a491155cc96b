#ifndef PUSHNODE_CPOSTGRES_SHIM_H
#define PUSHNODE_CPOSTGRES_SHIM_H
#include <libpq-fe.h>
#include <poll.h>

/* Waits until the connection's socket is readable or `timeout_ms` passed; <0 on error. */
static inline int pushnode_pq_wait_readable(PGconn *conn, int timeout_ms) {
    struct pollfd pfd;
    pfd.fd = PQsocket(conn);
    pfd.events = POLLIN;
    pfd.revents = 0;
    if (pfd.fd < 0) return -1;
    return poll(&pfd, 1, timeout_ms);
}

static void pushnode_pq_ignore_notice(void *arg, const char *message) { (void)arg; (void)message; }

/* Server NOTICEs ("relation already exists, skipping") are not for the node's log. */
static inline void pushnode_pq_silence_notices(PGconn *conn) {
    PQsetNoticeProcessor(conn, pushnode_pq_ignore_notice, NULL);
}
#endif
