import COpenSSL

/// The OpenSSL objects each thread reuses for P-256: a key generator set to the curve,
/// a key importer and a parameters-only key to copy the curve from. Making them costs
/// about as much as the work they do, so they are made once per thread (`ThreadLocal`).
final class P256Workspace {
    let keyGeneration: PKeyContext
    let keyImport: PKeyContext
    /// An EVP_PKEY holding only the P-256 domain parameters, copied into imported keys.
    let parameters: EVPKey

    private init() throws {
        keyGeneration = try PKeyContext(algorithm: "EC\0")
        try OpenSSL.check(EVP_PKEY_keygen_init(keyGeneration.pointer), "EVP_PKEY_keygen_init")
        try OpenSSL.check(
            EVP_PKEY_CTX_set_group_name(keyGeneration.pointer, OpenSSL.cString(OpenSSL.Name.p256)),
            "EVP_PKEY_CTX_set_group_name")
        keyImport = try PKeyContext(algorithm: "EC\0")
        try OpenSSL.check(EVP_PKEY_fromdata_init(keyImport.pointer), "EVP_PKEY_fromdata_init")
        var pkey: OpaquePointer? = nil
        var params = [
            OSSL_PARAM_construct_utf8_string(OpenSSL.cString(OpenSSL.Name.group), OpenSSL.cString(OpenSSL.Name.p256), 0),
            OSSL_PARAM_construct_end(),
        ]
        try OpenSSL.check(
            EVP_PKEY_fromdata(keyImport.pointer, &pkey, Int32(OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS), &params),
            "EVP_PKEY_fromdata")
        parameters = EVPKey(taking: try OpenSSL.check(pkey, "EVP_PKEY_fromdata"))
    }

    private static let perThread = ThreadLocal { try P256Workspace() }

    /// This thread's workspace.
    static var current: P256Workspace { get throws { try perThread.value } }
}

/// Building `EVP_PKEY`s from raw P-256 encodings and reading them back.
enum P256Import {
    /// `EVP_PKEY_KEYPAIR` (a macro Swift cannot import).
    static let keyPairSelection = Int32(
        OSSL_KEYMGMT_SELECT_DOMAIN_PARAMETERS | OSSL_KEYMGMT_SELECT_OTHER_PARAMETERS
            | OSSL_KEYMGMT_SELECT_PUBLIC_KEY | OSSL_KEYMGMT_SELECT_PRIVATE_KEY)

    /// A public key from `0x04 ‖ x ‖ y`. OpenSSL checks that the point is on the curve.
    /// Copying the domain parameters from a template is about twice as fast as
    /// `EVP_PKEY_fromdata`, which builds the curve group from its name each time.
    static func publicKey(uncompressed raw: [UInt8]) throws -> EVPKey {
        let template = try P256Workspace.current.parameters
        let fresh = EVPKey(taking: try OpenSSL.check(EVP_PKEY_new(), "EVP_PKEY_new"))
        try OpenSSL.check(EVP_PKEY_copy_parameters(fresh.pointer, template.pointer), "EVP_PKEY_copy_parameters")
        guard EVP_PKEY_set1_encoded_public_key(fresh.pointer, raw, raw.count) == 1 else {
            ERR_clear_error()
            throw CryptoError.invalidPoint
        }
        return fresh
    }

    /// A key pair from its secret scalar; the public point is computed as `d · G`.
    static func privateKey(scalar raw: [UInt8]) throws -> EVPKey {
        guard raw.count == P256.scalarSize else {
            throw CryptoError.invalidKeyLength(expected: P256.scalarSize, got: raw.count)
        }
        let group = try OpenSSL.check(EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1), "EC_GROUP_new_by_curve_name")
        defer { EC_GROUP_free(group) }
        let scalar = try OpenSSL.check(BN_bin2bn(raw, Int32(raw.count), nil), "BN_bin2bn")
        defer { BN_clear_free(scalar) }
        guard BN_is_zero(scalar) == 0, BN_cmp(scalar, EC_GROUP_get0_order(group)) < 0 else {
            throw CryptoError.invalidEncoding("P-256 private key out of range")
        }
        let point = try OpenSSL.check(EC_POINT_new(group), "EC_POINT_new")
        defer { EC_POINT_free(point) }
        try OpenSSL.check(EC_POINT_mul(group, point, scalar, nil, nil, nil), "EC_POINT_mul")
        var publicPoint = [UInt8](repeating: 0, count: P256.publicKeySize)
        guard EC_POINT_point2oct(group, point, POINT_CONVERSION_UNCOMPRESSED, &publicPoint, publicPoint.count, nil)
            == P256.publicKeySize
        else { throw OpenSSL.failure("EC_POINT_point2oct") }

        let builder = try OpenSSL.check(OSSL_PARAM_BLD_new(), "OSSL_PARAM_BLD_new")
        defer { OSSL_PARAM_BLD_free(builder) }
        try OpenSSL.check(
            OSSL_PARAM_BLD_push_utf8_string(
                builder, OpenSSL.cString(OpenSSL.Name.group), OpenSSL.cString(OpenSSL.Name.p256), 0),
            "OSSL_PARAM_BLD_push_utf8_string")
        try OpenSSL.check(
            OSSL_PARAM_BLD_push_BN(builder, OpenSSL.cString(OpenSSL.Name.privateKey), scalar), "OSSL_PARAM_BLD_push_BN")
        try OpenSSL.check(
            OSSL_PARAM_BLD_push_octet_string(
                builder, OpenSSL.cString(OpenSSL.Name.publicKey), publicPoint, publicPoint.count),
            "OSSL_PARAM_BLD_push_octet_string")
        let params = try OpenSSL.check(OSSL_PARAM_BLD_to_param(builder), "OSSL_PARAM_BLD_to_param")
        defer {
            // The builder copied the scalar into the array: clear it before freeing.
            if let secret = OSSL_PARAM_locate(params, OpenSSL.cString(OpenSSL.Name.privateKey)),
                secret.pointee.data != nil
            {
                OPENSSL_cleanse(secret.pointee.data, secret.pointee.data_size)
            }
            OSSL_PARAM_free(params)
        }
        var pkey: OpaquePointer? = nil
        try OpenSSL.check(
            EVP_PKEY_fromdata(try P256Workspace.current.keyImport.pointer, &pkey, P256Import.keyPairSelection, params),
            "EVP_PKEY_fromdata")
        return EVPKey(taking: try OpenSSL.check(pkey, "EVP_PKEY_fromdata"))
    }

    /// The uncompressed public point of `key`.
    static func uncompressedPublicKey(of key: EVPKey) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: P256.publicKeySize)
        var length = 0
        try OpenSSL.check(
            EVP_PKEY_get_octet_string_param(
                key.pointer, OpenSSL.cString(OpenSSL.Name.publicKey), &out, out.count, &length),
            "EVP_PKEY_get_octet_string_param")
        guard length == P256.publicKeySize, out[0] == 0x04 else { throw OpenSSL.failure("public key is not uncompressed") }
        return out
    }

    /// Refuses keys that are not P-256 (an RSA key or another curve in a PEM file).
    static func requireP256(_ key: EVPKey) throws {
        guard EVP_PKEY_is_a(key.pointer, OpenSSL.cString("EC\0")) == 1 else {
            throw CryptoError.invalidPEM("not an EC key")
        }
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(key.pointer, &name, name.count, &length) == 1 else {
            throw CryptoError.invalidPEM("EC key without a named curve")
        }
        let group = String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard group == "prime256v1" || group == "P-256" else { throw CryptoError.invalidPEM("EC key is not P-256") }
    }
}
