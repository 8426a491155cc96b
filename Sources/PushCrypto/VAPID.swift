/// Voluntary Application Server Identification for Web Push.
/// - SeeAlso: RFC 8292.
public enum VAPID {
    /// A push service refuses tokens that expire more than 24 hours ahead (RFC 8292 §2).
    public static let maximumLifetime = 86_400

    /// The application server's P-256 key pair.
    public struct Key: Sendable {
        public let privateKey: P256.PrivateKey
        /// base64url of the uncompressed public key: the `k=` parameter and the
        /// `applicationServerKey` browsers subscribe with.
        public let publicKeyBase64URL: String

        public init(privateKey: P256.PrivateKey) throws {
            self.privateKey = privateKey
            publicKeyBase64URL = Base64.encodeURL(try privateKey.publicKeyRawRepresentation)
        }

        /// A key from PEM (PKCS#8 or SEC1), as `pushnode keys vapid --out` writes it.
        public init(pemRepresentation pem: String) throws {
            try self.init(privateKey: P256.PrivateKey(pemRepresentation: pem))
        }

        public static func generate() throws -> Key { try Key(privateKey: .generate()) }

        /// The ES256 JWT `{"typ":"JWT","alg":"ES256"}.{"aud","exp","sub"}`. `audience` is the
        /// push resource's origin (see `VAPID.audience(forEndpoint:)`); `subject` a `mailto:`
        /// or `https:` contact (omitted when nil); `expiresAt` Unix seconds, at most
        /// `maximumLifetime` after now (the caller's clock decides "now").
        public func token(audience: String, subject: String?, expiresAt: Int) throws -> String {
            try VAPID.requireOrigin(audience)
            guard expiresAt > 0 else { throw CryptoError.invalidEncoding("VAPID exp must be positive") }
            let signer = ES256Signer(key: privateKey)
            let header: KeyValuePairs<String, JWT.Value> = ["typ": "JWT", "alg": "ES256"]
            guard let subject else {
                return try JWT.sign(header: header, claims: ["aud": .string(audience), "exp": .integer(expiresAt)], signer: signer)
            }
            guard subject.hasPrefix("mailto:") || subject.hasPrefix("https:") else {
                throw CryptoError.invalidEncoding("VAPID sub must be a mailto: or https: URI")
            }
            return try JWT.sign(
                header: header,
                claims: ["aud": .string(audience), "exp": .integer(expiresAt), "sub": .string(subject)],
                signer: signer)
        }

        /// The `Authorization` header value `vapid t=<token>, k=<public key>`.
        public func authorization(audience: String, subject: String?, expiresAt: Int) throws -> String {
            VAPID.authorization(
                token: try token(audience: audience, subject: subject, expiresAt: expiresAt),
                publicKey: publicKeyBase64URL)
        }
    }

    /// `vapid t=<token>, k=<public key>` (RFC 8292 §3).
    public static func authorization(token: String, publicKey: String) -> String {
        "vapid t=\(token), k=\(publicKey)"
    }

    /// The origin of a push endpoint URL, the `aud` of its VAPID token: lowercased
    /// `scheme://host[:port]`, without a default port (443 for https, 80 for http).
    public static func audience(forEndpoint endpoint: String) throws -> String {
        let scheme = endpoint.prefix { $0 != ":" }.lowercased()
        guard scheme == "https" || scheme == "http", endpoint.dropFirst(scheme.count).hasPrefix("://") else {
            throw CryptoError.invalidEncoding("endpoint is not an http(s) URL")
        }
        let rest = endpoint.dropFirst(scheme.count + 3)
        var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }.lowercased()
        guard !authority.isEmpty, !authority.contains("@") else { throw CryptoError.invalidEncoding("endpoint has no host") }
        let defaultPort = scheme == "https" ? ":443" : ":80"
        if authority.hasSuffix(defaultPort) {
            authority.removeLast(defaultPort.count)
        }
        let origin = scheme + "://" + authority
        try requireOrigin(origin)
        return origin
    }

    /// An origin is `http(s)://host[:port]` with nothing after it.
    static func requireOrigin(_ text: String) throws {
        let scheme: String
        if text.hasPrefix("https://") { scheme = "https://" } else if text.hasPrefix("http://") { scheme = "http://" } else {
            throw CryptoError.invalidEncoding("VAPID aud must be an http(s) origin")
        }
        let authority = text.dropFirst(scheme.count)
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else {
            throw CryptoError.invalidEncoding("VAPID aud must be an origin without a path")
        }
    }
}
