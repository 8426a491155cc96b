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
#endif
