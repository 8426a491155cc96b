#ifndef PUSHNODE_CCURL_SHIM_H
#define PUSHNODE_CCURL_SHIM_H
#include <curl/curl.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

/* curl_easy_setopt / curl_multi_setopt / curl_easy_getinfo are variadic: typed wrappers. */
static inline CURLcode pushnode_curl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pushnode_curl_easy_setopt_ptr(CURL *h, CURLoption o, const void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pushnode_curl_easy_setopt_off(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode pushnode_curl_easy_setopt_write(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f); }
static inline CURLcode pushnode_curl_easy_setopt_header(CURL *h, size_t (*f)(char *, size_t, size_t, void *)) { return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f); }
static inline CURLMcode pushnode_curl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }
static inline CURLcode pushnode_curl_easy_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pushnode_curl_easy_getinfo_ptr(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pushnode_curl_easy_getinfo_double(CURL *h, CURLINFO i, double *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pushnode_curl_easy_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode pushnode_curl_global_init_all(void) { return curl_global_init(CURL_GLOBAL_ALL); }
/* The HTTP version constants are an anonymous enum and a #define: typed here for Swift. */
static inline long pushnode_curl_http_version_2tls(void) { return CURL_HTTP_VERSION_2TLS; }
static inline long pushnode_curl_pipe_multiplex(void) { return CURLPIPE_MULTIPLEX; }
static inline CURLcode pushnode_curl_easy_setopt_opensocket(CURL *h, curl_socket_t (*f)(void *, curlsocktype, struct curl_sockaddr *)) { return curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, f); }
/* The IP address of a curl_sockaddr (its sockaddr may be an IPv6 one, longer than the struct says):
   copies 4 or 16 bytes into out and returns the count, or 0 for another family. */
static inline int pushnode_curl_sockaddr_ip(const struct curl_sockaddr *a, unsigned char out[16]) {
    if (a->family == AF_INET) { const struct sockaddr_in *in = (const void *)&a->addr; memcpy(out, &in->sin_addr, 4); return 4; }
    if (a->family == AF_INET6) { const struct sockaddr_in6 *in6 = (const void *)&a->addr; memcpy(out, &in6->sin6_addr, 16); return 16; }
    return 0;
}
/* What libcurl would do without an open-socket callback. */
static inline curl_socket_t pushnode_curl_open_socket(const struct curl_sockaddr *a) { return socket(a->family, a->socktype, a->protocol); }
static inline curl_socket_t pushnode_curl_socket_bad(void) { return CURL_SOCKET_BAD; }
#endif
