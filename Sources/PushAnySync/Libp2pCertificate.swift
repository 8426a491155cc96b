import COpenSSL
import Foundation
import PushCrypto

/// Owns one `X509`.
package final class X509Certificate {
    package let pointer: OpaquePointer
    init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { X509_free(pointer) }
}

/// Owns one `EVP_PKEY` (the certificate key).
package final class CertificateKey {
    package let pointer: OpaquePointer
    init(taking pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }
}

/// Why a TLS step failed (no secrets in the text).
package struct TLSFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) {
        ERR_clear_error()
        self.description = description
    }

    package static func check(_ rc: Int32, _ what: String) throws(TLSFailure) {
        guard rc == 1 else { throw TLSFailure(what) }
    }

    package static func check<T>(_ pointer: T?, _ what: String) throws(TLSFailure) -> T {
        guard let pointer else { throw TLSFailure(what) }
        return pointer
    }
}

/// The libp2p TLS certificate (Spec/anysync-wire.md §3.2–3.3): making the node's own, and checking a
/// peer's and deriving its peer id.
package enum Libp2pCertificate {
    /// A fresh P-256 key and self-signed certificate whose extension binds it to `hostKey`.
    package static func make(hostKey: Ed25519.KeyPair) throws(TLSFailure) -> (X509Certificate, CertificateKey) {
        let key = CertificateKey(taking: try TLSFailure.check(pushnode_evp_ec_gen_p256(), "EC key generation"))
        let spki = try subjectPublicKeyInfo(key.pointer)
        let value = SignedKeyExtension.Value(publicKey: PeerID.publicKeyProtobuf(hostKey.publicKey),
                                             signature: hostKey.sign(SignedKeyExtension.signaturePrefix + spki))
        let cert = X509Certificate(taking: try TLSFailure.check(X509_new(), "X509_new"))
        try TLSFailure.check(X509_set_version(cert.pointer, 2), "X509_set_version")
        let serial = SecureRandom.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } & ((1 << 62) - 1)
        try TLSFailure.check(ASN1_INTEGER_set_uint64(X509_get_serialNumber(cert.pointer), serial), "serial")
        let name = try TLSFailure.check(X509_NAME_new(), "X509_NAME_new")
        defer { X509_NAME_free(name) }
        let subject = String(SecureRandom.bytes(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } >> 2)
        try TLSFailure.check(X509_NAME_add_entry_by_txt(name, "serialNumber", MBSTRING_ASC, subject, -1, -1, 0), "subject")
        try TLSFailure.check(X509_set_subject_name(cert.pointer, name), "subject")
        try TLSFailure.check(X509_set_issuer_name(cert.pointer, name), "issuer")
        _ = try TLSFailure.check(X509_gmtime_adj(X509_getm_notBefore(cert.pointer), -3600), "notBefore")
        _ = try TLSFailure.check(X509_time_adj_ex(X509_getm_notAfter(cert.pointer), 36_500, 0, nil), "notAfter")
        try TLSFailure.check(X509_set_pubkey(cert.pointer, key.pointer), "X509_set_pubkey")
        try addExtension(SignedKeyExtension.encode(value), to: cert.pointer)
        guard X509_sign(cert.pointer, key.pointer, EVP_sha256()) > 0 else { throw TLSFailure("X509_sign") }
        return (cert, key)
    }

    /// Checks a peer certificate: validity dates, exactly one libp2p extension, an Ed25519 host key
    /// whose signature covers the certificate's key. Returns the peer id of the host key.
    static func verifiedPeerID(of cert: OpaquePointer) throws(TLSFailure) -> String {
        guard X509_cmp_current_time(X509_get0_notBefore(cert)) < 0, X509_cmp_current_time(X509_get0_notAfter(cert)) > 0 else {
            throw TLSFailure("peer certificate outside its validity period")
        }
        let object = try TLSFailure.check(OBJ_txt2obj(SignedKeyExtension.oid, 1), "OBJ_txt2obj")
        defer { ASN1_OBJECT_free(object) }
        let index = X509_get_ext_by_OBJ(cert, object, -1)
        guard index >= 0 else { throw TLSFailure("peer certificate has no libp2p extension") }
        guard X509_get_ext_by_OBJ(cert, object, index) < 0 else { throw TLSFailure("peer certificate has two libp2p extensions") }
        let data = try TLSFailure.check(X509_EXTENSION_get_data(X509_get_ext(cert, index)), "extension data")
        let raw = Array(UnsafeBufferPointer(start: ASN1_STRING_get0_data(data), count: Int(ASN1_STRING_length(data))))
        let pkey = try TLSFailure.check(X509_get0_pubkey(cert), "peer certificate key")
        let spki = try subjectPublicKeyInfo(pkey)
        do {
            let value = try SignedKeyExtension.decode(raw)
            let hostKey = try PeerID.ed25519Key(fromProtobuf: value.publicKey)
            guard Ed25519.verify(signature: value.signature, message: SignedKeyExtension.signaturePrefix + spki, publicKey: hostKey) else {
                throw TLSFailure("libp2p extension signature does not verify")
            }
            return PeerID.string(publicKey: hostKey)
        } catch let error as AnySyncWireError {
            throw TLSFailure("libp2p extension: \(error)")
        } catch let error as TLSFailure {
            throw error
        } catch {
            throw TLSFailure("libp2p extension")
        }
    }

    /// DER `SubjectPublicKeyInfo` of a key.
    static func subjectPublicKeyInfo(_ key: OpaquePointer) throws(TLSFailure) -> [UInt8] {
        let length = i2d_PUBKEY(key, nil)
        guard length > 0 else { throw TLSFailure("i2d_PUBKEY") }
        var out = [UInt8](repeating: 0, count: Int(length))
        let written = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_PUBKEY(key, &cursor)
        }
        guard written == length else { throw TLSFailure("i2d_PUBKEY") }
        return out
    }

    private static func addExtension(_ value: [UInt8], to cert: OpaquePointer) throws(TLSFailure) {
        let object = try TLSFailure.check(OBJ_txt2obj(SignedKeyExtension.oid, 1), "OBJ_txt2obj")
        defer { ASN1_OBJECT_free(object) }
        let octets = try TLSFailure.check(ASN1_OCTET_STRING_new(), "ASN1_OCTET_STRING_new")
        defer { ASN1_OCTET_STRING_free(octets) }
        try TLSFailure.check(ASN1_OCTET_STRING_set(octets, value, Int32(value.count)), "ASN1_OCTET_STRING_set")
        let ext = try TLSFailure.check(X509_EXTENSION_create_by_OBJ(nil, object, 0, octets), "extension")
        defer { X509_EXTENSION_free(ext) }
        try TLSFailure.check(X509_add_ext(cert, ext, -1), "X509_add_ext")
    }
}
