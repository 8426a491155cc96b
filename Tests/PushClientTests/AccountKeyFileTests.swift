import Foundation
import PushCrypto
import Testing
@testable import PushClient

@Suite struct AccountKeyFileTests {
    func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("account-\(UUID().uuidString).key").path
    }

    func mode(_ path: String) -> mode_t {
        var info = stat()
        _ = stat(path, &info)
        return info.st_mode & 0o777
    }

    @Test func createWritesAnOwnerOnlyHexSeedThatLoadsBack() throws {
        let path = tempPath()
        defer { unlink(path) }
        let key = try AccountKeyFile.create(path)
        #expect(mode(path) == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == Hex.encode(key.keyPair.seed) + "\n")
        #expect(try AccountKeyFile.load(path).accountID == key.accountID)
        #expect(try AccountKeyFile.loadOrCreate(path).accountID == key.accountID)
    }

    @Test func createNeverReplacesAFile() throws {
        let path = tempPath()
        defer { unlink(path) }
        let first = try AccountKeyFile.create(path)
        #expect(throws: PushClientError.self) { try AccountKeyFile.create(path) }
        #expect(try AccountKeyFile.load(path).accountID == first.accountID)
    }

    @Test func loadOrCreateMakesOneWhenMissing() throws {
        let path = tempPath()
        defer { unlink(path) }
        let made = try AccountKeyFile.loadOrCreate(path)
        #expect(try AccountKeyFile.load(path).accountID == made.accountID)
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        let path = tempPath()
        defer { unlink(path) }
        try AccountKeyFile.create(path)
        chmod(path, 0o644)
        #expect { try AccountKeyFile.load(path) } throws: { ($0 as? PushClientError)?.code == .keyFile }
        chmod(path, 0o640)
        #expect(throws: PushClientError.self) { try AccountKeyFile.load(path) }
        chmod(path, 0o400)
        #expect(throws: Never.self) { try AccountKeyFile.load(path) }
    }

    @Test func aMalformedOrMissingFileIsRefused() throws {
        let path = tempPath()
        defer { unlink(path) }
        #expect(throws: PushClientError.self) { try AccountKeyFile.load(path) }
        _ = FileManager.default.createFile(atPath: path, contents: Data("abc\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: PushClientError.self) { try AccountKeyFile.load(path) }
    }
}
