import COpenSSL
import PushAnySync
import PushCrypto

/// A client's libp2p identity for the bench client: an Ed25519 peer key and one `SSL_CTX`
/// (TLS 1.3 only, its libp2p certificate, ALPN `libp2p`, no server verification — the server's
/// extension is checked by hand), reused across connections as a real peer reuses its certificate.
final class AnySyncBenchIdentity: @unchecked Sendable {
    // SSL_CTX is shared read-only across threads once configured.
    let context: OpaquePointer
    let peerKey: Ed25519.KeyPair
    let peerID: String

    init() throws {
        peerKey = Ed25519.KeyPair()
        peerID = PeerID.string(publicKey: peerKey.publicKey)
        let (cert, key) = try Libp2pCertificate.make(hostKey: peerKey)
        context = try TLSFailure.check(SSL_CTX_new(TLS_client_method()), "SSL_CTX_new")
        do {
            guard pushnode_ssl_ctx_set_min_proto(context, TLS1_3_VERSION) == 1,
                  pushnode_ssl_ctx_set_max_proto(context, TLS1_3_VERSION) == 1 else { throw TLSFailure("TLS 1.3 only") }
            try TLSFailure.check(SSL_CTX_use_certificate(context, cert.pointer), "SSL_CTX_use_certificate")
            try TLSFailure.check(SSL_CTX_use_PrivateKey(context, key.pointer), "SSL_CTX_use_PrivateKey")
            let alpn: [UInt8] = [6] + Array("libp2p".utf8)
            guard SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count)) == 0 else { throw TLSFailure("ALPN") }
        } catch {
            SSL_CTX_free(context)
            throw error
        }
    }

    deinit { SSL_CTX_free(context) }
}
