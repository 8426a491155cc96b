import HTTPClient
import PushProtocol

/// An error of the client library, with a stable code (STYLE §5). When the node answered with an
/// error body, `status` and `apiCode` carry its HTTP status and `error.code`.
public struct PushClientError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Code
    public var message: String
    /// The node's HTTP status, when the error is the node's answer.
    public var status: Int?
    /// The node's `error.code` (PROTOCOL §3), when it sent one: compare with the constants
    /// (`.platformDisabled`, `.authExpired`, …).
    public var apiCode: APIError.Code?

    public init(code: Code, message: String, status: Int? = nil, apiCode: APIError.Code? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.apiCode = apiCode
    }

    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let status { text += " (\(status)\(apiCode.map { " \($0.rawValue)" } ?? ""))" }
        return text
    }

    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        /// The transport threw: no HTTP answer.
        public static let network: Code = "client.network"
        /// The node answered 4xx/5xx.
        public static let rejected: Code = "client.rejected"
        /// The node answered 2xx with a body that does not decode.
        public static let badAnswer: Code = "client.bad_answer"
        /// The `NotifySettingsSource` could not list the account's spaces.
        public static let sourceFailed: Code = "client.source_failed"
        /// Sealing the payload failed.
        public static let sealFailed: Code = "client.seal_failed"
        /// A payload of the caller's own bytes seals to more than the node (or every provider) takes.
        public static let payloadTooLarge: Code = "client.payload_too_large"
        /// A space key that is not base58 of 32 bytes.
        public static let badSpaceKey: Code = "client.bad_space_key"
        /// The account key file or space file is missing, open to others, or malformed.
        public static let keyFile: Code = "client.key_file"
        /// An argument the node would refuse anyway (e.g. Web Push keys that are not base64url).
        public static let invalidArgument: Code = "client.invalid_argument"

        // Receiver (PushReceiver.open).
        /// A required `x-any-*` key is absent.
        public static let missingField: Code = "receiver.missing_field"
        /// `x-any-payload` or `x-any-signature` is not standard base64.
        public static let badBase64: Code = "receiver.bad_base64"
        /// The cached key does not open the payload (wrong key or tampered bytes).
        public static let doesNotOpen: Code = "receiver.does_not_open"
        /// The decrypted payload is not the expected JSON, or its `senderId` is not an account id.
        public static let badPayload: Code = "receiver.bad_payload"
        /// `x-any-signature` is not the sender's signature over the sealed payload.
        public static let badSignature: Code = "receiver.bad_signature"
        /// A key whose id does not match the key bytes.
        public static let keyIdMismatch: Code = "receiver.key_id_mismatch"
    }

    /// The message is the transport's stable code (`transport.connect_failed`), never its text:
    /// that may carry a URL, and a Web Push endpoint is a secret.
    static func network(_ error: any Error) -> PushClientError {
        PushClientError(code: .network, message: (error as? TransportError)?.code ?? "\(type(of: error))")
    }

    /// The error of a non-2xx answer, reading the node's `{"error": {...}}` body when present.
    static func rejected(_ response: NodeResponse) -> PushClientError {
        let body = try? JSON.decode(NodeWire.ErrorAnswer.self, from: response.body)
        return PushClientError(code: .rejected, message: body?.error.message ?? "HTTP \(response.status)",
                               status: response.status, apiCode: body?.error.code)
    }
}
