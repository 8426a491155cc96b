/// Signs the JWS signing input `base64url(header) ‖ "." ‖ base64url(claims)`.
public protocol JWTSigner: Sendable {
    /// The JWS `alg` this signer produces (`ES256`, `RS256`).
    var algorithm: String { get }
    func sign(_ signingInput: [UInt8]) throws -> [UInt8]
}

/// Compact JWS tokens with small, ordered JSON headers and claims.
/// - SeeAlso: RFC 7515 §7.1 (compact serialization), RFC 7519.
public enum JWT {
    /// A JSON value in a header or claim set: strings and integers are all these tokens need.
    public enum Value: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
        case string(String)
        case integer(Int)

        public init(stringLiteral value: String) { self = .string(value) }
        public init(integerLiteral value: Int) { self = .integer(value) }
    }

    /// `header.claims.signature`, each part base64url; members are written in the given order.
    public static func sign(
        header: KeyValuePairs<String, Value>, claims: KeyValuePairs<String, Value>, signer: some JWTSigner
    ) throws -> String {
        try sign(headerJSON: json(header), claimsJSON: json(claims), signer: signer)
    }

    /// Signs already-serialized JSON header and claims (the bytes are used as given).
    public static func sign(headerJSON: [UInt8], claimsJSON: [UInt8], signer: some JWTSigner) throws -> String {
        let signingInput = Base64.encodeURL(headerJSON) + "." + Base64.encodeURL(claimsJSON)
        let signature = try signer.sign(Array(signingInput.utf8))
        return signingInput + "." + Base64.encodeURL(signature)
    }

    /// Compact JSON of an object with string and integer members.
    static func json(_ members: KeyValuePairs<String, Value>) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (index, member) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendString(member.key, to: &out)
            out.append(UInt8(ascii: ":"))
            switch member.value {
            case .string(let text): appendString(text, to: &out)
            case .integer(let number): out += Array(String(number).utf8)
            }
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    /// A JSON string literal (RFC 8259 §7): quote, backslash and control characters escaped.
    static func appendString(_ text: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out += Array("\\u00".utf8)
                out += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
