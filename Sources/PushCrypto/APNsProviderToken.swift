/// The APNs provider authentication token: ES256 over `{"alg":"ES256","kid":keyID}` and
/// `{"iss":teamID,"iat":issuedAt}`, sent as `authorization: bearer <token>`.
/// APNs wants it reused and renewed between 20 and 60 minutes of age; that policy belongs
/// to the caller, which passes its clock's `issuedAt`.
public struct APNsProviderToken: Sendable {
    /// The 10-character key id of the `.p8` key.
    public let keyID: String
    /// The 10-character Apple developer team id.
    public let teamID: String
    public let signer: ES256Signer

    public init(keyID: String, teamID: String, signer: ES256Signer) {
        self.keyID = keyID
        self.teamID = teamID
        self.signer = signer
    }

    /// A token issued at `issuedAt` (Unix seconds).
    public func token(issuedAt: Int) throws -> String {
        try JWT.sign(
            header: ["alg": "ES256", "kid": .string(keyID)],
            claims: ["iss": .string(teamID), "iat": .integer(issuedAt)],
            signer: signer)
    }
}
