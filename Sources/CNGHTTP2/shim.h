#ifndef PUSHNODE_CNGHTTP2_SHIM_H
#define PUSHNODE_CNGHTTP2_SHIM_H
#include <nghttp2/nghttp2.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

/* struct epoll_event is packed on x86-64: built and read here rather than from Swift. */
static inline struct epoll_event pushnode_epoll_event(uint32_t events, uint64_t data) {
    struct epoll_event e; e.events = events; e.data.u64 = data; return e;
}
static inline uint64_t pushnode_epoll_data(const struct epoll_event *e) { return e->data.u64; }
static inline uint32_t pushnode_epoll_events(const struct epoll_event *e) { return e->events; }
#endif
