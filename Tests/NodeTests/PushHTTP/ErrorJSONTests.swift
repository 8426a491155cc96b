import Foundation
import PushProtocol
import Testing
@testable import PushHTTP

/// The one error renderer: the code's status, the envelope, and `internal` without details.
@Suite struct ErrorJSONTests {
    static let scrubbed = #"{"error":{"code":"internal","message":"internal error"}}"#

    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    @Test func refusalsCarryCodeMessageAndField() {
        let response = ErrorJSON.response(.refused(.topicSignatureInvalid, "the signature of topics[1] does not verify",
                                                   field: "topics[1].signature"))
        #expect(response.status == 400)
        #expect(response.headers.map(\.0) == ["Content-Type"])
        #expect(text(response)
                == #"{"error":{"code":"topic.signature_invalid","field":"topics[1].signature","message":"the signature of topics[1] does not verify"}}"#)
    }

    @Test func internalErrorsNeverCarryDetails() {
        for response in [ErrorJSON.response(.internal, "disk /var/x full", field: "x"),
                         ErrorJSON.response(APIError(code: .internal, message: "disk /var/x full", field: "x")),
                         ErrorJSON.response(.refused(.internal, "disk /var/x full", field: "x")),
                         ErrorJSON.response("no.such_code", "disk /var/x full", field: "x")] {
            #expect(response.status == 500)
            #expect(text(response) == Self.scrubbed)
        }
    }

    @Test func storageFailuresAre503WithRetryAfterAndNeverCarryDetails() {
        for response in [ErrorJSON.response(.storageFailed(LeakyStoreError())),
                         ErrorJSON.response(.storageUnavailable, "disk /var/x full", field: "x"),
                         ErrorJSON.response(APIError(code: .storageUnavailable, message: "disk /var/x full")),
                         ErrorJSON.storageUnavailable] {
            #expect(response.status == 503)
            #expect(response.headers.map(\.0) == ["Content-Type", "Retry-After"])
            #expect(response.headers.contains { $0 == ("Retry-After", "2") })
            #expect(text(response) == StorageUnavailableTests.body)
        }
    }

    @Test func unavailableKeepsItsMessage() {
        let response = ErrorJSON.response(.unavailable, "storage is not open yet")
        #expect(response.status == 503)
        #expect(text(response) == #"{"error":{"code":"unavailable","message":"storage is not open yet"}}"#)
    }

    @Test func retryAfterThenExtraHeaders() {
        let limited = ErrorJSON.response(.rateLimited, "slow down", retryAfter: 7)
        #expect(limited.status == 429)
        #expect(limited.headers.contains { $0.0 == "Retry-After" && $0.1 == "7" })
        let notAllowed = ErrorJSON.response(.methodNotAllowed, "DELETE is not allowed here", extraHeaders: [("Allow", "GET")])
        #expect(notAllowed.status == 405)
        #expect(notAllowed.headers.map(\.0) == ["Content-Type", "Allow"])
    }
}
