import Foundation
import PushCrypto

/// Loads a JSON vector from `Spec/vectors/`, found relative to this source file.
enum VectorFile {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // PushCryptoTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("Spec/vectors")

    static func load<T: Decodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func object(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: directory.appendingPathComponent(name))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CryptoError.invalidEncoding("\(name) is not a JSON object")
        }
        return object
    }
}

extension Dictionary where Key == String, Value == Any {
    func string(_ key: String) throws -> String {
        guard let value = self[key] as? String else { throw CryptoError.invalidEncoding("vector field \(key)") }
        return value
    }

    func int(_ key: String) throws -> Int {
        guard let value = self[key] as? Int else { throw CryptoError.invalidEncoding("vector field \(key)") }
        return value
    }

    /// A base64url field decoded.
    func bytes(_ key: String) throws -> [UInt8] { try Base64.decodeURL(string(key)) }

    func object(_ key: String) throws -> [String: Any] {
        guard let value = self[key] as? [String: Any] else { throw CryptoError.invalidEncoding("vector field \(key)") }
        return value
    }
}
