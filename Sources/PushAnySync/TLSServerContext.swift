import COpenSSL
import PushCrypto

/// Accepts any client certificate during the handshake: the libp2p extension is checked by hand
/// afterwards (Spec/anysync-wire.md §3.3), as Go's `InsecureSkipVerify` + `VerifyPeerCertificate` do.
private let acceptAnyCertificate: @convention(c) (Int32, OpaquePointer?) -> Int32 = { _, _ in 1 }

/// Selects ALPN `libp2p` when offered; refuses a client offering only other protocols.
private let selectLibp2p: @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
    UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
) -> Int32 = { _, out, outLength, input, inputLength, _ in
    guard let input, let out, let outLength else { return 3 } // SSL_TLSEXT_ERR_NOACK
    let wanted = Array("libp2p".utf8)
    var offset = 0
    while offset < Int(inputLength) {
        let length = Int(input[offset])
        let start = offset + 1
        guard start + length <= Int(inputLength) else { break }
        if length == wanted.count && (0..<length).allSatisfy({ input[start + $0] == wanted[$0] }) {
            out.pointee = input + start
            outLength.pointee = UInt8(length)
            return 0 // SSL_TLSEXT_ERR_OK
        }
        offset = start + length
    }
    return 2 // SSL_TLSEXT_ERR_ALERT_FATAL
}

/// Owns the `SSL_CTX` of the door: TLS 1.3 only, the node's libp2p certificate, a required client
/// certificate, ALPN `libp2p`, no session tickets or cache.
package final class TLSServerContext: @unchecked Sendable {
    // SSL_CTX is safe to share across threads once configured; it is never changed after init.
    let pointer: OpaquePointer

    init(hostKey: Ed25519.KeyPair) throws(TLSFailure) {
        let (cert, key) = try Libp2pCertificate.make(hostKey: hostKey)
        pointer = try TLSFailure.check(SSL_CTX_new(TLS_server_method()), "SSL_CTX_new")
        do {
            try configure(cert: cert, key: key)
        } catch {
            SSL_CTX_free(pointer)
            throw error
        }
    }

    private func configure(cert: X509Certificate, key: CertificateKey) throws(TLSFailure) {
        guard pushnode_ssl_ctx_set_min_proto(pointer, TLS1_3_VERSION) == 1,
              pushnode_ssl_ctx_set_max_proto(pointer, TLS1_3_VERSION) == 1 else { throw TLSFailure("TLS 1.3 only") }
        try TLSFailure.check(SSL_CTX_use_certificate(pointer, cert.pointer), "SSL_CTX_use_certificate")
        try TLSFailure.check(SSL_CTX_use_PrivateKey(pointer, key.pointer), "SSL_CTX_use_PrivateKey")
        try TLSFailure.check(SSL_CTX_check_private_key(pointer), "SSL_CTX_check_private_key")
        SSL_CTX_set_verify(pointer, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, acceptAnyCertificate)
        try TLSFailure.check(SSL_CTX_set_num_tickets(pointer, 0), "SSL_CTX_set_num_tickets")
        _ = SSL_CTX_set_options(pointer, pushnode_ssl_op_no_ticket())
        _ = pushnode_ssl_ctx_disable_session_cache(pointer)
        SSL_CTX_set_alpn_select_cb(pointer, selectLibp2p, nil)
    }

    deinit { SSL_CTX_free(pointer) }
}
