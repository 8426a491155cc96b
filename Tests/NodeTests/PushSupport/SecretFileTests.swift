import Foundation
import Testing
@testable import PushSupport

@Suite struct SecretFileTests {
    @Test func createsOnceWithMode0600AndNeverReplaces() throws {
        let dir = TemporaryDirectory()
        let path = dir.url.appendingPathComponent("key").path
        #expect(try SecretFile.createExclusively(path, contents: Array("first\n".utf8)))
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try !SecretFile.createExclusively(path, contents: Array("second\n".utf8)))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\n")
    }

    @Test func failsNamingThePathOnly() {
        let path = "/nonexistent-dir-\(UUID().uuidString)/key"
        let error = #expect(throws: SecretFile.WriteError.self) {
            try SecretFile.createExclusively(path, contents: Array("secret-bytes".utf8))
        }
        #expect(error?.description.contains(path) == true)
        #expect(error?.description.contains("secret-bytes") == false)
    }
}
