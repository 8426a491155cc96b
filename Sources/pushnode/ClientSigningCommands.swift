import Foundation
import PushCrypto
import PushProtocol
import PushSupport

/// `pushnode client sign-request --seed HEX --method M --path P [--query Q] [--body-file F]
/// [--created UNIX] [--nonce TEXT]`: prints the signature headers of PROTOCOL §2 as JSON.
func runSignRequest(_ args: Arguments) throws {
    let key = try AccountKey(seed: Hex.decode(args.required("seed")))
    let created = try args.options["created"].map { text -> Int64 in
        guard let n = Int64(text) else { throw CLIError("--created must be Unix seconds") }
        return n
    }
    let nonce = args.options["nonce"]
    if let nonce, nonce.count < HTTPSignatureProfile.minimumNonceLength {
        throw CLIError("--nonce must have at least \(HTTPSignatureProfile.minimumNonceLength) characters")
    }
    let signer = HTTPSigner(key: key,
                            now: { created ?? HTTPSigner.unixTime() },
                            nonce: { nonce ?? HTTPSigner.randomNonce() })
    let headers = try signer.sign(method: args.required("method"), path: args.required("path"),
                                  query: args.options["query"], body: try readBody(args))
    var object: [String: Any] = [:]
    for (name, value) in headers.fields { object[name] = value }
    Output.json(object)
}

/// `pushnode client verify-request --method M --path P [--query Q] [--body-file F]
/// --signature-input S --signature S [--content-digest D]`: checks a request signature against
/// the profile (no clock or replay check). Prints `{"valid": true, "accountId", "created",
/// "nonce"}` and exits 0, or `{"valid": false, "code", "message"}` and exits 1.
func runVerifyRequest(_ args: Arguments) throws {
    let request = HTTPSignatureVerifier.Request(
        method: try args.required("method"), path: try args.required("path"), query: args.options["query"],
        body: try readBody(args), signatureInput: args.options["signature-input"],
        signature: args.options["signature"], contentDigest: args.options["content-digest"])
    do {
        let verified = try HTTPSignatureVerifier.verify(request)
        Output.json(["valid": true, "accountId": verified.accountID.string, "created": verified.created,
                     "nonce": verified.nonce])
    } catch {
        let apiError = error.apiError
        Output.json(["valid": false, "code": apiError.code.rawValue, "message": apiError.message])
        exit(1)
    }
}

private func readBody(_ args: Arguments) throws -> [UInt8] {
    guard let path = args.options["body-file"] else { return [] }
    guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
    return Array(data)
}
