import PushCrypto

/// Field decoders for the encodings of PROTOCOL §1; each failure names the field's JSON path.
extension KeyedDecodingContainer {
    /// Standard base64 with padding (signatures, payloads).
    func decodeBase64(forKey key: Key) throws -> [UInt8] {
        let text = try decode(String.self, forKey: key)
        return try Self.bytes(text, key: key, in: self, decoder: Base64.decode, what: "standard base64")
    }

    /// base64url, padding tolerated (Web Push keys).
    func decodeBase64URLIfPresent(forKey key: Key) throws -> [UInt8]? {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        return try Self.bytes(text, key: key, in: self, decoder: Base64.decodeURL, what: "base64url")
    }

    /// An integer. Foundation reports a fraction or an out-of-range number with an internal error
    /// that has no coding path, so any failure is named here.
    func decodeIntegerIfPresent(forKey key: Key) throws -> Int? {
        do {
            return try decodeIfPresent(Int.self, forKey: key)
        } catch {
            let path = FieldPath.of(key, in: self)
            throw APIError.invalid(path, "\(path) must be an integer")
        }
    }

    private static func bytes(_ text: String, key: Key, in container: Self,
                              decoder: (String) throws -> [UInt8], what: String) throws -> [UInt8] {
        do {
            return try decoder(text)
        } catch {
            let path = FieldPath.of(key, in: container)
            throw APIError.invalid(path, "\(path) must be \(what)")
        }
    }
}
