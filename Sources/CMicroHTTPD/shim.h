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
/// Called once per request with the raw request target (path and query, still escaped) before
/// libmicrohttpd splits and unescapes it; the returned pointer becomes the request's `*con_cls`.
typedef void *(*pushnode_mhd_uri_logger)(void *cls, const char *uri, struct MHD_Connection *connection);
/// Called when a connection starts (`code` MHD_CONNECTION_NOTIFY_STARTED) and before its socket is
/// closed (MHD_CONNECTION_NOTIFY_CLOSED).
typedef void (*pushnode_mhd_notify_connection)(void *cls, struct MHD_Connection *connection, void **socket_context,
    enum MHD_ConnectionNotificationCode code);

/// MHD_start_daemon is variadic: an internal polling thread (epoll where available) with a
/// thread pool of `threads` on `port` bound to `addr` (IPv4 or IPv6, pass MHD_USE_IPv6 in
/// `flags` for the latter). MHD_USE_ITC is added so that MHD_quiesce_daemon works.
static inline struct MHD_Daemon *pushnode_mhd_start(unsigned int flags, uint16_t port,
    const struct sockaddr *addr, unsigned int threads, unsigned int connectionLimit, unsigned int timeoutSeconds,
    size_t connectionMemoryLimit, unsigned int perIPConnectionLimit,
    pushnode_mhd_access_handler handler, void *cls, pushnode_mhd_completed completed, void *ccls,
    pushnode_mhd_uri_logger uriLogger, void *ucls, pushnode_mhd_notify_connection notify, void *ncls) {
    return MHD_start_daemon(flags | MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ITC, port, NULL, NULL, handler, cls,
        MHD_OPTION_SOCK_ADDR, addr,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_CONNECTION_LIMIT, connectionLimit,
        MHD_OPTION_CONNECTION_TIMEOUT, timeoutSeconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, connectionMemoryLimit,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, perIPConnectionLimit,
        MHD_OPTION_NOTIFY_CONNECTION, notify, ncls,
        MHD_OPTION_NOTIFY_COMPLETED, completed, ccls,
        MHD_OPTION_URI_LOG_CALLBACK, uriLogger, ucls,
        MHD_OPTION_END);
}

/// The socket of a connection, or -1.
static inline int pushnode_mhd_connection_fd(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The port the daemon is bound to (the real one when it was started on port 0); 0 if unknown.
static inline uint16_t pushnode_mhd_bound_port(struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}
#endif
