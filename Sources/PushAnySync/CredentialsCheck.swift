import PushCrypto

/// The server side of the credentials exchange (Spec/anysync-wire.md §4.4): checks a client's
/// Credentials in the reference's order and makes the node's own.
package struct CredentialsCheck: Sendable {
    /// The node's peer id (from its TLS host key).
    var ownPeerID: String
    /// Accepted `Credentials.version` values.
    var versions: ClosedRange<Int>

    enum Outcome: Equatable {
        /// The caller's account and the client's version (echoed back).
        case accepted(account: AccountID, version: UInt64)
        /// Answer `Ack{code}` and close.
        case refused(HandshakeErrorCode)
        /// Close without an Ack (the payload did not parse).
        case closeSilently
    }

    func check(_ credentials: HandshakeCredentials, remotePeerID: String) -> Outcome {
        guard credentials.version <= UInt64(Int.max), versions.contains(Int(credentials.version)) else {
            return .refused(.incompatibleVersion)
        }
        guard credentials.type == HandshakeCredentials.signedPeerIds else { return .refused(.skipVerifyNotAllowed) }
        guard let fields = try? Protobuf.fields(credentials.payload),
              let identity = try? Protobuf.bytes(fields, 1) ?? [],
              let sign = try? Protobuf.bytes(fields, 2) ?? [] else { return .closeSilently }
        guard let publicKey = Self.accountKey(fromIdentity: identity), let account = try? AccountID(publicKey: publicKey) else {
            return .refused(.invalidCredentials)
        }
        guard account.verify(signature: sign, message: Array((remotePeerID + ownPeerID).utf8)) else {
            return .refused(.invalidCredentials)
        }
        if credentials.clientVersion.contains("middle:v0.36.6") { return .refused(.incompatibleVersion) }
        return .accepted(account: account, version: credentials.version)
    }

    /// The node's Credentials: its sign key over `ownPeerID ‖ remotePeerID`, echoing `version`.
    package func credentials(signKey: Ed25519.KeyPair, remotePeerID: String, version: UInt64, clientVersion: String) -> HandshakeCredentials {
        let sign = signKey.sign(Array((ownPeerID + remotePeerID).utf8))
        let payload = HandshakeCredentials.signedPeerIdsPayload(
            identity: HandshakeCredentials.identity(publicKey: signKey.publicKey), sign: sign)
        return HandshakeCredentials(type: HandshakeCredentials.signedPeerIds, payload: payload, version: version,
                                    clientVersion: clientVersion)
    }

    /// `12 20 ‖ pub32` with the key type absent or 0 (Ed25519Public).
    package static func accountKey(fromIdentity identity: [UInt8]) -> [UInt8]? {
        guard let fields = try? Protobuf.fields(identity), (try? Protobuf.varint(fields, 1)) == 0,
              let data = try? Protobuf.bytes(fields, 2), data.count == 32 else { return nil }
        return data
    }
}
