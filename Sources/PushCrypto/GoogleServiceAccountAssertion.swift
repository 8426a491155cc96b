/// The RS256 JWT a Google service account signs to get an OAuth access token for FCM
/// (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=<token>` posted to
/// `token_uri`). Claims: `iss` = `client_email`, `scope`, `aud` = `token_uri`, `iat`,
/// `exp` = `iat` + 3600.
public struct GoogleServiceAccountAssertion: Sendable {
    public static let firebaseMessagingScope = "https://www.googleapis.com/auth/firebase.messaging"
    /// Google accepts assertions valid for at most an hour.
    public static let lifetime = 3600

    public let clientEmail: String
    public let tokenURI: String
    public let scope: String
    /// The service account's `private_key_id`, sent as `kid` when present.
    public let privateKeyID: String?
    public let signer: RS256Signer

    public init(
        clientEmail: String, tokenURI: String, signer: RS256Signer, privateKeyID: String? = nil,
        scope: String = GoogleServiceAccountAssertion.firebaseMessagingScope
    ) {
        self.clientEmail = clientEmail
        self.tokenURI = tokenURI
        self.signer = signer
        self.privateKeyID = privateKeyID
        self.scope = scope
    }

    /// An assertion issued at `issuedAt` (Unix seconds), expiring an hour later.
    public func token(issuedAt: Int) throws -> String {
        let claims: KeyValuePairs<String, JWT.Value> = [
            "iss": .string(clientEmail), "scope": .string(scope), "aud": .string(tokenURI),
            "iat": .integer(issuedAt), "exp": .integer(issuedAt + Self.lifetime),
        ]
        guard let privateKeyID else { return try JWT.sign(header: ["alg": "RS256", "typ": "JWT"], claims: claims, signer: signer) }
        return try JWT.sign(header: ["alg": "RS256", "typ": "JWT", "kid": .string(privateKeyID)], claims: claims, signer: signer)
    }
}
