import COpenSSL

/// One TLS 1.3 session over memory BIOs, fed from a `SocketChannel` by hand: the door's server
/// side, or the bench client's side (`init(client:)`). Because
/// every socket byte passes through this code, nothing after the handshake is lost: the bytes left
/// in the read BIO when the TLS layer is dropped (`abandon`) are handed to yamux. The session is
/// never shut down, so no close_notify is sent (Spec/anysync-wire.md §3.5).
package final class TLSSession {
    private let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private let channel: SocketChannel
    private let deadline: Double

    package convenience init(context: TLSServerContext, channel: SocketChannel, deadline: Double) throws(TLSFailure) {
        try self.init(sslContext: context.pointer, accepting: true, channel: channel, deadline: deadline)
    }

    /// A client session on a client `SSL_CTX` (the bench client's libp2p identity).
    package convenience init(client sslContext: OpaquePointer, channel: SocketChannel, deadline: Double) throws(TLSFailure) {
        try self.init(sslContext: sslContext, accepting: false, channel: channel, deadline: deadline)
    }

    private init(sslContext: OpaquePointer, accepting: Bool, channel: SocketChannel, deadline: Double) throws(TLSFailure) {
        ssl = try TLSFailure.check(SSL_new(sslContext), "SSL_new")
        guard let rbio = pushnode_bio_new_mem(), let wbio = pushnode_bio_new_mem() else {
            SSL_free(ssl)
            throw TLSFailure("BIO_new")
        }
        readBIO = rbio
        writeBIO = wbio
        SSL_set_bio(ssl, rbio, wbio) // the SSL owns both BIOs from here
        if accepting { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
        self.channel = channel
        self.deadline = deadline
    }

    deinit { SSL_free(ssl) }

    /// Runs the handshake and returns the peer's verified libp2p peer id.
    package func handshake() throws -> String {
        while true {
            let rc = SSL_do_handshake(ssl)
            try flush()
            if rc == 1 { break }
            guard SSL_get_error(ssl, rc) == SSL_ERROR_WANT_READ else { throw TLSFailure("TLS handshake failed") }
            try feed()
        }
        guard let cert = SSL_get1_peer_certificate(ssl) else { throw TLSFailure("no peer certificate") }
        defer { X509_free(cert) }
        return try Libp2pCertificate.verifiedPeerID(of: cert)
    }

    /// Reads application data: at least one byte.
    package func read() throws -> [UInt8] {
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

    package func write(_ bytes: [UInt8]) throws {
        var written = 0
        let rc = bytes.withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }
        guard rc == 1, written == bytes.count else { throw TLSFailure("TLS write failed") }
        try flush()
    }

    /// Drops TLS: returns the raw bytes received after the last TLS record, for the next layer.
    /// Throws when decrypted application data is still unread (the peer spoke out of turn).
    package func abandon() throws -> [UInt8] {
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

    /// Sends whatever OpenSSL wrote into the write BIO.
    private func flush() throws {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while BIO_ctrl_pending(writeBIO) > 0 {
            let n = buffer.withUnsafeMutableBytes { BIO_read(writeBIO, $0.baseAddress, Int32($0.count)) }
            guard n > 0 else { break }
            try channel.write(Array(buffer[0..<Int(n)]))
        }
    }

    /// Moves bytes from the socket into the read BIO.
    private func feed() throws {
        let bytes = try channel.read(deadline: deadline)
        let n = bytes.withUnsafeBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        guard n == Int32(bytes.count) else { throw TLSFailure("BIO_write") }
    }
}
