import HTTPClient
import PushClient
import PushDelivery
import PushProtocol

/// A client command's failure to reach the node, said with the node's URL and the cause:
/// `cannot reach the node at http://127.0.0.1:1: connection refused or host not found
/// (transport.connect_failed)` instead of a bare `connectFailed`.
///
/// Only the node's base URL is printed (the user gave it); never a request's headers, body,
/// token or key.
enum NodeFailureText {
    /// `error` as a `CLIError`: a transport failure (raw `TransportError` or `client.network`)
    /// named with `nodeURL`, any other `PushClientError` with its description; others unchanged.
    /// A node's refusal carries the `ErrorHints` fix for its code (`platform` names the provider
    /// of a `platform.disabled`).
    static func cliError(_ error: any Error, nodeURL: String, platform: Platform? = nil) -> any Error {
        switch error {
        case let error as TransportError:
            return CLIError(unreachable(nodeURL, code: error.code))
        case let error as PushClientError where error.code == .network:
            return CLIError(unreachable(nodeURL, code: error.message))
        case let error as PushClientError:
            return CLIError(error.description, hint: ErrorHints.forCode(error.apiCode, platform: platform))
        default:
            return error
        }
    }

    private static func unreachable(_ nodeURL: String, code: String) -> String {
        guard let cause = causes[DeliveryReason.Code(rawValue: code)] else { return "cannot reach the node at \(nodeURL): \(code)" }
        return "cannot reach the node at \(nodeURL): \(cause) (\(code))"
    }

    /// A transport failure's code (`TransportError.code`, the same strings as the §6 `transport.*`
    /// reasons) → what it means for someone at a terminal.
    private static let causes: [DeliveryReason.Code: String] = [
        .transportConnectFailed: "connection refused or host not found",
        .transportTimedOut: "timed out",
        .transportConnectionReset: "the connection was reset before a full answer",
        .transportTLS: "TLS handshake or certificate verification failed (see --ca-file)",
        .transportTooLarge: "the answer was too large",
        .transportInvalidURL: "not a valid http(s) URL",
        .transportForbiddenAddress: "the host resolves only to refused addresses",
        .transportCancelled: "cancelled",
        .transportOther: "transport failure",
    ]
}
