#ifndef PUSHNODE_COPENSSL_SHIM_H
#define PUSHNODE_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/param_build.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/ssl.h>
#include <openssl/crypto.h>

/// OPENSSL_free is a macro.
static inline void pushnode_openssl_free(void *p) { OPENSSL_free(p); }

/// EVP_EC_gen is a macro: generate a P-256 key.
static inline EVP_PKEY *pushnode_evp_ec_gen_p256(void) { return EVP_EC_gen("P-256"); }

/// Swift cannot call the BIO_get_mem_data macro.
static inline long pushnode_bio_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }

static inline long pushnode_ssl_ctx_set_min_proto(SSL_CTX *ctx, int v) { return SSL_CTX_set_min_proto_version(ctx, v); }
static inline long pushnode_ssl_ctx_set_max_proto(SSL_CTX *ctx, int v) { return SSL_CTX_set_max_proto_version(ctx, v); }

/// SSL_CTX_set_session_cache_mode is a macro.
static inline long pushnode_ssl_ctx_disable_session_cache(SSL_CTX *ctx) { return SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF); }
/// BIO_new(BIO_s_mem()) in one call.
static inline BIO *pushnode_bio_new_mem(void) { return BIO_new(BIO_s_mem()); }
/// SSL_OP_NO_TICKET is a macro expression Swift cannot import.
static inline uint64_t pushnode_ssl_op_no_ticket(void) { return SSL_OP_NO_TICKET; }
/// SSL_set_tlsext_host_name is a macro: the SNI name of a client connection.
static inline long pushnode_ssl_set_sni(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
#endif
