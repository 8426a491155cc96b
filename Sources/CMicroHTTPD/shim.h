#ifndef PUSHNODE_CMICROHTTPD_SHIM_H
#define PUSHNODE_CMICROHTTPD_SHIM_H
#include <stdarg.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

typedef enum MHD_Result (*pushnode_mhd_access_handler)(void *cls, struct MHD_Connection *connection,
    const char *url, const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **con_cls);
typedef void (*pushnode_mhd_completed)(void *cls, struct MHD_Connection *connection, void **con_cls,
    enum MHD_RequestTerminationCode toe);

/// MHD_start_daemon is variadic: an internal thread pool on `port` bound to `addr` (IPv4 or IPv6).
static inline struct MHD_Daemon *pushnode_mhd_start(unsigned int flags, uint16_t port,
    const struct sockaddr *addr, unsigned int threads, unsigned int connectionLimit, unsigned int timeoutSeconds,
    pushnode_mhd_access_handler handler, void *cls, pushnode_mhd_completed completed, void *ccls) {
    return MHD_start_daemon(flags, port, NULL, NULL, handler, cls,
        MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
        MHD_OPTION_NOTIFY_COMPLETED, completed, ccls,
        MHD_OPTION_END);
}
#endif
