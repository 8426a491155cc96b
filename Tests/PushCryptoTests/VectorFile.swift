import Foundation

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
}
