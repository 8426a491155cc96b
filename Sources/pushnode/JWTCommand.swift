import Foundation
import PushCrypto
import PushProtocol
import PushSupport

// `pushnode jwt vapid|apns|google|rs256 …`: the provider tokens pushnode signs, for interop tests
// and support work (options: `CommandTable.jwt`).

private var now: Int { Int(Date().timeIntervalSince1970) }

private func integerOption(_ args: Arguments, _ name: String, default value: Int) throws -> Int {
    guard let text = args.options[name] else { return value }
    guard let number = Int(text), number >= 0 else { throw CLIError("--\(name) must be a non-negative integer") }
    return number
}

func jwtVapid(_ args: Arguments) throws {
    let pem = try readText(try args.required("key"))
    let lifetime = try integerOption(args, "expires-in", default: 12 * 3600)
    guard lifetime > 0, lifetime <= VAPID.maximumLifetime else {
        throw CLIError("--expires-in must be 1...\(VAPID.maximumLifetime) seconds")
    }
    let (token, header) = try explainingCryptoErrors {
        let key = try VAPID.Key(pemRepresentation: pem)
        let audience = try VAPID.audience(forEndpoint: try args.required("aud"))
        let token = try key.token(audience: audience, subject: args.options["sub"], expiresAt: now + lifetime)
        return (token, VAPID.authorization(token: token, publicKey: key.publicKeyBase64URL))
    }
    Output.json(["token": token, "header": header])
}

func jwtAPNs(_ args: Arguments) throws {
    let pem = try readText(try args.required("key"))
    let keyID = try args.required("key-id")
    let teamID = try args.required("team-id")
    let issuedAt = try integerOption(args, "iat", default: now)
    let token = try explainingCryptoErrors {
        try APNsProviderToken(keyID: keyID, teamID: teamID, signer: ES256Signer(pemRepresentation: pem))
            .token(issuedAt: issuedAt)
    }
    Output.json(["token": token])
}

func jwtGoogle(_ args: Arguments) throws {
    let path = try args.required("service-account")
    guard let text = try? readText(path), let account = JSON.object(text.utf8),
        let clientEmail = account["client_email"] as? String, let privateKey = account["private_key"] as? String
    else { throw CLIError("\(path) is not a service-account JSON (client_email, private_key)") }
    let tokenURI = account["token_uri"] as? String ?? "https://oauth2.googleapis.com/token"
    let issuedAt = try integerOption(args, "iat", default: now)
    let token = try explainingCryptoErrors {
        try GoogleServiceAccountAssertion(
            clientEmail: clientEmail, tokenURI: tokenURI, signer: RS256Signer(pemRepresentation: privateKey),
            privateKeyID: account["private_key_id"] as? String
        ).token(issuedAt: issuedAt)
    }
    Output.json(["token": token])
}

/// Signs the given claims JSON (used byte for byte) under `{"alg":"RS256","typ":"JWT"}`.
func jwtRS256(_ args: Arguments) throws {
    let pem = try readText(try args.required("key"))
    let claims = try args.required("claims")
    guard JSON.object(claims.utf8) != nil else {
        throw CLIError("--claims must be a JSON object")
    }
    let token = try explainingCryptoErrors {
        try JWT.sign(
            headerJSON: Array(#"{"alg":"RS256","typ":"JWT"}"#.utf8), claimsJSON: Array(claims.utf8),
            signer: RS256Signer(pemRepresentation: pem))
    }
    Output.json(["token": token])
}
