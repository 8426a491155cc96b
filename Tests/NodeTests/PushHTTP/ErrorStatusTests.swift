import Foundation
import PushProtocol
import Testing
@testable import PushHTTP

/// The one table code → HTTP status against the contract, and PushProtocol's own statuses.
@Suite struct ErrorStatusTests {
    /// `code → status` as Spec/protocol.md §3.2 lists them (a row may name several codes).
    static func specTable() throws -> [APIError.Code: Int] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("Spec/protocol.md"), encoding: .utf8)
        let start = try #require(text.range(of: "### 3.2 Error codes"))
        let end = try #require(text.range(of: "### 3.3", range: start.upperBound..<text.endIndex))
        var table: [APIError.Code: Int] = [:]
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2, let status = Int(cells[0]) else { continue }
            for code in cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter({ $0.offset % 2 == 1 }).map(\.element) {
                table[APIError.Code(rawValue: String(code))] = status
            }
        }
        return table
    }

    @Test func everyCodeOfTheContractHasItsStatusAndNoOtherCodeExists() throws {
        let spec = try Self.specTable()
        #expect(spec.count == 26)  // the parse found every row
        #expect(ErrorStatus.byCode == spec)
    }

    @Test func anAPIErrorAnswersWithItsCodesStatus() {
        let response = ErrorJSON.response(APIError(code: .invalidField, message: "ttl is wrong", field: "ttl"))
        #expect(response.status == 400)
    }

    @Test func everyPushProtocolErrorHasAStatus() {
        let protocolErrors: [APIError] = [
            HTTPSignatureError.missing.apiError, HTTPSignatureError.malformed("x").apiError,
            HTTPSignatureError.invalidSignature("x").apiError,
            .malformed("x"), .missing("x"), .invalid("x", "y"), .internalError,
        ]
        for error in protocolErrors {
            #expect(ErrorStatus.byCode[error.code] != nil, "\(error.code.rawValue)")
        }
    }
}
