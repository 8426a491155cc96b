import COpenSSL
import PushCrypto

/// A client's libp2p identity for the bench client: an Ed25519 peer key and one `SSL_CTX`
/// (TLS 1.3 only, its libp2p certificate, ALPN `libp2p`, no server verification — the server's
/// extension is checked by hand), reused across connections as a real peer reuses its certificate.
public final class AnySyncBenchIdentity: @unchecked Sendable {
    // SSL_CTX is shared read-only across threads once configured.
    let context: OpaquePointer
    let peerKey: Ed25519.KeyPair
    let peerID: String

    public init() throws {
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

/// One client-side TLS 1.3 session over memory BIOs on a `SocketChannel`; dropped (no
/// close_notify) after the credentials handshake, like the server side (`TLSSession`).
final class TLSClientSession {
    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private let channel: SocketChannel
    private let deadline: Double

    init(identity: AnySyncBenchIdentity, channel: SocketChannel, deadline: Double) throws(TLSFailure) {
        ssl = try TLSFailure.check(SSL_new(identity.context), "SSL_new")
        guard let rbio = pushnode_bio_new_mem(), let wbio = pushnode_bio_new_mem() else {
            SSL_free(ssl)
            throw TLSFailure("BIO_new")
        }
        readBIO = rbio
        writeBIO = wbio
        SSL_set_bio(ssl, rbio, wbio)
        SSL_set_connect_state(ssl)
        self.channel = channel
        self.deadline = deadline
    }

    deinit { SSL_free(ssl) }

    /// Runs the handshake and returns the server's verified peer id.
    func handshake() throws -> String {
        while true {
            let rc = SSL_do_handshake(ssl)
            try flush()
            if rc == 1 { break }
            guard SSL_get_error(ssl, rc) == SSL_ERROR_WANT_READ else { throw TLSFailure("TLS handshake failed") }
            try feed()
        }
        guard let cert = SSL_get1_peer_certificate(ssl) else { throw TLSFailure("no server certificate") }
        defer { X509_free(cert) }
        return try Libp2pCertificate.verifiedPeerID(of: cert)
    }

    func read() throws -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            var count = 0
            let rc = buffer.withUnsafeMutableBytes { SSL_read_ex(ssl, $0.baseAddress, $0.count, &count) }
            if rc == 1 { return Array(buffer[0..<count]) }
            guard SSL_get_error(ssl, rc) == SSL_ERROR_WANT_READ else { throw TLSFailure("TLS read failed") }
            try flush()
            try feed()
        }
    }

    func write(_ bytes: [UInt8]) throws {
        var written = 0
        let rc = bytes.withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }
        guard rc == 1, written == bytes.count else { throw TLSFailure("TLS write failed") }
        try flush()
    }

    /// Drops TLS: the raw bytes received after the last TLS record.
    func abandon() throws -> [UInt8] {
        guard SSL_pending(ssl) == 0 else { throw TLSFailure("application data after the handshake") }
        var rest: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { BIO_read(readBIO, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { break }
            rest += buffer[0..<Int(n)]
        }
        return rest
    }

    private func flush() throws {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while BIO_ctrl_pending(writeBIO) > 0 {
            let n = buffer.withUnsafeMutableBytes { BIO_read(writeBIO, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { break }
            try channel.write(Array(buffer[0..<Int(n)]))
        }
    }

    private func feed() throws {
        let bytes = try channel.read(deadline: deadline)
        let n = bytes.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        guard n == Int32(bytes.count) else { throw TLSFailure("BIO_write") }
    }
}
