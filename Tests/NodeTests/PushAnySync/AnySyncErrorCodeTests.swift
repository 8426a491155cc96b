import Foundation
import PushProtocol
import Testing
@testable import PushAnySync

/// The one table code → any-sync code against Spec/protocol.md §8.1.
@Suite struct AnySyncErrorCodeTests {
    /// The §8.1 rows with their own code: DRPC code → (fixed text, the HTTP codes it stands for).
    static func specRows() throws -> [UInt64: (text: String, codes: [APIError.Code])] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Spec/protocol.md"), encoding: .utf8)
        let start = try #require(text.range(of: "### 8.1 Error mapping"))
        let end = try #require(text.range(of: "## 9.", range: start.upperBound..<text.endIndex))
        var rows: [UInt64: (String, [APIError.Code])] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4, let code = UInt64(cells[0]), code != AnySyncErrorCode.unexpected,
                  code != AnySyncErrorCode.unknownRPC else { continue }
            let codes = cells[3].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { APIError.Code(rawValue: String($0.element)) }
            rows[code] = (cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")), codes)
        }
        return rows
    }

    @Test func everyCodeMapsAsTheContractSays() throws {
        let rows = try Self.specRows()
        #expect(Set(rows.keys) == [700, 1201, 1202])
        var own: Set<APIError.Code> = []
        for (drpc, row) in rows {
            for code in row.codes {
                own.insert(code)
                #expect(AnySyncErrorCode.code(for: code) == drpc, "\(code.rawValue)")
                #expect(AnySyncErrorCode.reply(for: .refused(code, "whatever")) == .error(code: drpc, message: row.text))
            }
        }
        #expect(own == Set(AnySyncErrorCode.byCode.keys))
        // Every other refusal of §3.2 is `Unexpected` (1200) with the refusal's own text, naming the
        // rule or limit (PROTOCOL §8).
        for code in try ErrorStatusTests.specTable().keys where !own.contains(code) && code != .internal {
            #expect(AnySyncErrorCode.code(for: code) == AnySyncErrorCode.unexpected, "\(code.rawValue)")
            #expect(AnySyncErrorCode.reply(for: .refused(code, "at most 3 topics per request"))
                    == .error(code: 1200, message: "at most 3 topics per request"))
        }
    }

    @Test func refusalsWithoutACodeOfTheirOwnAre1200NamingTheRule() {
        #expect(AnySyncErrorCode.reply(for: .refused(.missingField, "push: message is required", field: "message"))
                == .error(code: 1200, message: "push: message is required"))
        #expect(AnySyncErrorCode.reply(for: .refused(.invalidField, "expect ed25519 public key data size to be 32"))
                == .error(code: 1200, message: "expect ed25519 public key data size to be 32"))
    }

    @Test func theNodesOwnFailuresAre1200WithAFixedText() {
        #expect(AnySyncErrorCode.code(for: .internal) == AnySyncErrorCode.unexpected)
        #expect(AnySyncErrorCode.reply(for: .storageFailed(LeakyStoreError())) == .error(code: 1200, message: "unexpected error: storage unavailable"))
        #expect(AnySyncErrorCode.reply(for: .refused(.internal, "disk /var/x full")) == .error(code: 1200, message: "unexpected error"))
    }
}
