import PushCrypto

/// The `apns-id` of a delivery: a UUID derived from its outbox id, so every try of one
/// delivery carries the same id (APNs echoes it back; logs can match tries and answers)
/// without revealing the outbox's row numbers to Apple.
enum APNsRequestID {
    /// The first 16 bytes of SHA-256(`"pushnode apns-id" ‖ 0x00 ‖ BE64(outboxId)`), with the
    /// RFC 9562 version-4 and variant bits set (the bits are pseudo-random), in 8-4-4-4-12
    /// lowercase form.
    static func uuid(forOutboxId outboxId: Int64) -> String {
        var input = Array("pushnode apns-id".utf8)
        input.append(0)
        let id = UInt64(bitPattern: outboxId)
        for shift in stride(from: 56, through: 0, by: -8) { input.append(UInt8(truncatingIfNeeded: id >> UInt64(shift))) }
        var bytes = Array(SHA256.hash(input).prefix(16))
        bytes[6] = (bytes[6] & 0x0f) | 0x40
        bytes[8] = (bytes[8] & 0x3f) | 0x80
        let hex = Hex.encode(bytes)
        let chars = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(chars[$0]) }.joined(separator: "-")
    }
}
