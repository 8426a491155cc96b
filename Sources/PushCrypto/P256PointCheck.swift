import COpenSSL

/// Checks a Web Push subscriber key (`p256dh`): a 65-byte uncompressed P-256 point on the curve.
public enum P256PointCheck {
    public static func isValidUncompressedPoint(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 65, bytes[0] == 0x04 else { return false }
        guard let group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1) else { return false }
        defer { EC_GROUP_free(group) }
        guard let point = EC_POINT_new(group) else { return false }
        defer { EC_POINT_free(point) }
        guard EC_POINT_oct2point(group, point, bytes, bytes.count, nil) == 1 else { return false }
        return EC_POINT_is_on_curve(group, point, nil) == 1 && EC_POINT_is_at_infinity(group, point) == 0
    }
}
