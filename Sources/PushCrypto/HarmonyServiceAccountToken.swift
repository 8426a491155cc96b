/// The JWT a Huawei service account signs to call HarmonyOS Push Kit v3 itself (no exchange:
/// the JWT is the bearer token). Header `{"kid": key_id, "typ": "JWT", "alg": "PS256"}`, claims
/// `{"aud", "iss": sub_account, "exp": iat + 3600, "iat"}` (Spec/providers.md "Huawei Push Kit",
/// from Huawei's "Generating an Authentication Token Based on a Service Account").
public struct HarmonyServiceAccountToken: Sendable {
    /// The `aud` Huawei fixes for every service-account JWT.
    public static let audience = "https://oauth-login.cloud.huawei.com/oauth2/v3/token"
    /// Huawei's documented lifetime (and advice to reuse the token within it); it refuses a JWT
    /// valid for more than a day (80300036).
    public static let lifetime = 3600

    /// The service account file's `key_id`.
    public let keyID: String
    /// The service account file's `sub_account`.
    public let subAccount: String
    public let signer: PS256Signer

    public init(keyID: String, subAccount: String, signer: PS256Signer) {
        self.keyID = keyID
        self.subAccount = subAccount
        self.signer = signer
    }

    /// A token issued at `issuedAt` (Unix seconds), expiring `lifetime` later.
    public func token(issuedAt: Int) throws -> String {
        try JWT.sign(
            header: ["kid": .string(keyID), "typ": "JWT", "alg": "PS256"],
            claims: ["aud": .string(Self.audience), "iss": .string(subAccount),
                     "exp": .integer(issuedAt + Self.lifetime), "iat": .integer(issuedAt)],
            signer: signer)
    }
}
