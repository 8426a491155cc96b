import Testing
@testable import PushCrypto

/// `Spec/vectors/slip10-slip21.json`: the official SLIP-10 (ed25519) and SLIP-21 vectors,
/// and the paths SLIP-10 ed25519 must refuse.
@Suite struct SLIPDerivationTests {
    struct Chain: Decodable, Sendable { let path, chainCode, privateKey: String }
    struct SLIP10Vector: Decodable, Sendable, CustomTestStringConvertible {
        let seed: String
        let chains: [Chain]
        var testDescription: String { "seed \(seed.prefix(8))…" }
    }
    struct Node: Decodable, Sendable { let path, key: String }
    struct SLIP21Vector: Decodable, Sendable { let seed: String; let nodes: [Node] }
    struct BadPath: Decodable, Sendable, CustomTestStringConvertible {
        let path, why: String
        var testDescription: String { "\(path) (\(why))" }
    }
    struct File: Decodable {
        let slip10Ed25519: [SLIP10Vector]
        let slip21: SLIP21Vector
        let slip10Invalid: [BadPath]
    }

    static let file = try? VectorFile.load("slip10-slip21.json", as: File.self)

    @Test func fileLoads() {
        #expect(Self.file?.slip10Ed25519.count == 2)
        #expect((Self.file?.slip21.nodes.count ?? 0) >= 4)
    }

    @Test(arguments: file?.slip10Ed25519 ?? []) func slip10Official(_ v: SLIP10Vector) throws {
        let seed = try Hex.decode(v.seed)
        for chain in v.chains {
            let node = try SLIP10.derive(seed: seed, indices: SLIP10.parse(path: chain.path))
            #expect(Hex.encode(node.key) == chain.privateKey, "\(chain.path)")
            #expect(Hex.encode(node.chainCode) == chain.chainCode, "\(chain.path)")
            #expect(Hex.encode(try SLIP10.ed25519Key(seed: seed, path: chain.path)) == chain.privateKey)
        }
    }

    @Test func slip21Official() throws {
        let vector = try #require(Self.file?.slip21)
        let seed = try Hex.decode(vector.seed)
        for node in vector.nodes {
            #expect(Hex.encode(try SLIP21.key(seed: seed, path: node.path)) == node.key, "\(node.path)")
        }
    }

    @Test(arguments: file?.slip10Invalid ?? []) func slip10RefusesPath(_ bad: BadPath) {
        #expect {
            try SLIP10.ed25519Key(seed: [UInt8](repeating: 7, count: 64), path: bad.path)
        } throws: { error in
            if case .invalidDerivationPath? = error as? CryptoError { true } else { false }
        }
    }

    @Test func slip10RefusesNonHardenedIndices() {
        let seed = [UInt8](repeating: 1, count: 32)
        #expect {
            try SLIP10.ed25519Key(seed: seed, indices: [SLIP10.hardenedOffset, 1])
        } throws: { error in
            if case .invalidDerivationPath? = error as? CryptoError { true } else { false }
        }
    }

    @Test func slip10AcceptsHMarkersAndChecksSeedLength() throws {
        let seed = [UInt8](repeating: 1, count: 32)
        #expect(try SLIP10.ed25519Key(seed: seed, path: "m/0h/1H") == SLIP10.ed25519Key(seed: seed, path: "m/0'/1'"))
        #expect(try SLIP10.parse(path: "m/2147483647'") == [UInt32.max])
        #expect(throws: CryptoError.invalidKeyLength(expected: 64, got: 15)) {
            try SLIP10.ed25519Key(seed: [UInt8](repeating: 0, count: 15), path: "m")
        }
        #expect(throws: CryptoError.invalidKeyLength(expected: 64, got: 65)) {
            try SLIP10.ed25519Key(seed: [UInt8](repeating: 0, count: 65), path: "m")
        }
    }

    @Test func slip21RefusesMalformedPaths() {
        for path in ["SLIP-0021/x", "m/", "m//x", "n/x", ""] {
            #expect(throws: CryptoError.self, "\(path)") { try SLIP21.key(seed: [1, 2, 3], path: path) }
        }
    }

    @Test func slip21LabelsAreRawBytes() throws {
        let seed = Array("seed".utf8)
        #expect(try SLIP21.key(seed: seed, path: "m/a/b") == SLIP21.key(seed: seed, labels: [Array("a".utf8), Array("b".utf8)]))
        #expect(SLIP21.key(seed: seed, labels: [Array("a/b".utf8)]) != (try SLIP21.key(seed: seed, path: "m/a/b")))
    }
}
