import PushProtocol

/// What one try at a request came to, as the retry schedule sees it.
public enum AttemptOutcome: Sendable, Equatable {
    /// 2xx.
    case success
    /// Worth another try: a network error (no answer), 429, or 5xx. `retryAfter` is the raw header.
    case transient(status: Int?, retryAfter: String?)
    /// Any other answer (4xx but 429, or an unexpected 1xx/3xx): trying again cannot help.
    case rejected(status: Int, apiCode: APIError.Code?)

    /// Classifies an HTTP answer.
    public static func classify(_ response: NodeResponse) -> AttemptOutcome {
        switch response.status {
        case 200..<300:
            return .success
        case 429, 500..<600:
            return .transient(status: response.status, retryAfter: response.header("retry-after"))
        default:
            let apiCode = (try? JSON.decode(NodeWire.ErrorAnswer.self, from: response.body))?.error.code
            return .rejected(status: response.status, apiCode: apiCode)
        }
    }

    /// A transport error: no answer at all.
    public static let networkError = AttemptOutcome.transient(status: nil, retryAfter: nil)
}
