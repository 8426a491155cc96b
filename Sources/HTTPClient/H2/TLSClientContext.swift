import COpenSSL

/// The OpenSSL client context of the HTTP/2 engine: TLS 1.2 or later, the peer's certificate
/// verified against the system's CAs and `caFile` (the same trust as the libcurl engine's
/// `CURLOPT_CAINFO` plus the system CA path), ALPN offering `h2` and `http/1.1`.
final class TLSClientContext: @unchecked Sendable {
    let context: OpaquePointer

    init(caFile: String?) throws(TransportError) {
        guard let context = SSL_CTX_new(TLS_client_method()) else { throw .tls("SSL_CTX_new failed") }
        self.context = context
        _ = pushnode_ssl_ctx_set_min_proto(context, TLS1_2_VERSION)
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        guard SSL_CTX_set_default_verify_paths(context) == 1 else { throw .tls("no system CA store") }
        if let caFile, SSL_CTX_load_verify_locations(context, caFile, nil) != 1 {
            throw .tls("cannot load the CA file")
        }
        // Partial writes and a moving buffer: a write may return early, and the retry may pass
        // the same bytes from another address (a Swift array).
        _ = SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        let protocols: [UInt8] = [2] + Array("h2".utf8) + [8] + Array("http/1.1".utf8)
        // Returns 0 on success, unlike most of OpenSSL.
        guard SSL_CTX_set_alpn_protos(context, protocols, UInt32(protocols.count)) == 0 else { throw .tls("ALPN setup failed") }
    }

    deinit { SSL_CTX_free(context) }

    /// A client session for `host` on the socket: SNI for a name, the name or IP address checked
    /// against the certificate.
    func session(fd: Int32, target: H2Target) throws(TransportError) -> OpaquePointer {
        guard let ssl = SSL_new(context) else { throw .tls("SSL_new failed") }
        SSL_set_fd(ssl, fd)
        let parameters = SSL_get0_param(ssl)
        if target.address != nil {
            guard X509_VERIFY_PARAM_set1_ip_asc(parameters, target.host) == 1 else {
                SSL_free(ssl)
                throw .tls("bad IP literal")
            }
        } else {
            _ = pushnode_ssl_set_sni(ssl, target.host)
            guard SSL_set1_host(ssl, target.host) == 1 else {
                SSL_free(ssl)
                throw .tls("bad host name")
            }
        }
        SSL_set_connect_state(ssl)
        return ssl
    }

    /// OpenSSL's queued error, as text for `TransportError.tls` (never a URL or secret).
    static func lastError(_ fallback: String) -> String {
        let code = ERR_get_error()
        guard code != 0 else { return fallback }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        ERR_clear_error()
        return String(cString: buffer)
    }
}
