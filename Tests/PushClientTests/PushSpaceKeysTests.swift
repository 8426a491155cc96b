import Foundation
import PushCrypto
import Testing
@testable import PushClient

@Suite struct PushSpaceKeysTests {
    func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("space-\(UUID().uuidString).json").path
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    /// any's derivation and the raw keys it yields are one and the same space.
    @Test func theDerivedAndTheRawFormOfTheVectorAreTheSameSpace() throws {
        let derived = try PushSpaceKeys.derive(firstMetadataKey: Hex.decode(AnyCompatVector.metadataKeySeed),
                                               readKey: Hex.decode(AnyCompatVector.readKey))
        let raw = try PushSpaceKeys(pushKeySeed: Hex.decode(AnyCompatVector.spacePushSeed),
                                    payloadKey: Hex.decode(AnyCompatVector.encKey))
        for keys in [derived, raw] {
            #expect(keys.spaceKey == AnyCompatVector.spaceKey)
            #expect(keys.keyId == AnyCompatVector.encKeyId)
            #expect(Base64.encode(keys.pushKey.sign(topic: AnyCompatVector.topic)) == AnyCompatVector.topicSignature)
        }
        #expect(derived.payloadKey.isSameKey(as: raw.payloadKey))
    }

    @Test func wrongKeyLengthsAreRefusedByName() throws {
        #expect(throws: PushClientError(code: .invalidArgument, message: "the push key seed is 32 bytes, got 31")) {
            try PushSpaceKeys(pushKeySeed: [UInt8](repeating: 1, count: 31), payloadKey: [UInt8](repeating: 2, count: 32))
        }
        #expect(throws: PushClientError(code: .invalidArgument, message: "the payload key is 32 bytes, got 16")) {
            try PushSpaceKeys(pushKeySeed: [UInt8](repeating: 1, count: 32), payloadKey: [UInt8](repeating: 2, count: 16))
        }
        #expect(throws: PushClientError(code: .invalidArgument, message: "the read key is 32 bytes, got 3")) {
            try PushSpaceKeys.derive(firstMetadataKey: Hex.decode(AnyCompatVector.metadataKeySeed), readKey: [1, 2, 3])
        }
    }

    @Test func generatedSpacesAreDistinct() {
        let a = PushSpaceKeys.generate(), b = PushSpaceKeys.generate()
        #expect(a.spaceKey != b.spaceKey)
        #expect(a.keyId != b.keyId)
    }

    @Test func aSpaceFileIsOwnerOnlyLoadsBackAndIsNeverReplaced() throws {
        let path = tempPath()
        defer { unlink(path) }
        let keys = try SpaceKeyFile.create(path)
        #expect(mode(path) == 0o600)
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: String]
        #expect(object == ["format": "pushnode-space-v1", "spaceKey": keys.spaceKey, "keyId": keys.keyId,
                           "pushKeySeed": Hex.encode(keys.pushKey.keyPair.seed), "payloadKey": keys.payloadKey.base64])
        let loaded = try SpaceKeyFile.load(path)
        #expect(loaded.spaceKey == keys.spaceKey)
        #expect(loaded.payloadKey.isSameKey(as: keys.payloadKey))

        #expect(throws: PushClientError.self) { try SpaceKeyFile.create(path) }
        #expect(try SpaceKeyFile.load(path).spaceKey == keys.spaceKey, "the first file is left as it was")
    }

    @Test func aSpaceFileOthersCanReadOrWhosePartsDisagreeIsRefused() throws {
        let path = tempPath()
        defer { unlink(path) }
        let keys = try SpaceKeyFile.create(path)
        chmod(path, 0o640)
        #expect(throws: PushClientError(code: .keyFile, message: "\(path) is accessible by others (mode 640); chmod 600 it")) {
            try SpaceKeyFile.load(path)
        }

        func write(_ object: [String: String]) throws {
            unlink(path)
            try SecretFileForTests.write(object, to: path)
        }
        let good = ["format": "pushnode-space-v1", "pushKeySeed": Hex.encode(keys.pushKey.keyPair.seed),
                    "payloadKey": keys.payloadKey.base64]
        try write(good)
        #expect(try SpaceKeyFile.load(path).spaceKey == keys.spaceKey, "spaceKey and keyId are optional")

        try write(good.merging(["spaceKey": PushSpaceKeys.generate().spaceKey]) { $1 })
        #expect(throws: PushClientError(code: .keyFile, message: "\(path): spaceKey is not the public key of pushKeySeed")) {
            try SpaceKeyFile.load(path)
        }
        try write(good.merging(["keyId": String(repeating: "0", count: 64)]) { $1 })
        #expect(throws: PushClientError(code: .keyFile, message: "\(path): keyId is not the SHA-256 of payloadKey")) {
            try SpaceKeyFile.load(path)
        }
        try write(good.merging(["format": "pushnode-space-v2"]) { $1 })
        #expect(throws: PushClientError(code: .keyFile, message: "\(path) is not a space file (pushnode-space-v1)")) {
            try SpaceKeyFile.load(path)
        }
    }
}

/// Writes a hand-made space file at mode 0600.
enum SecretFileForTests {
    static func write(_ object: [String: String], to path: String) throws {
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect(FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]))
    }
}
