import Foundation
import PushProtocol

extension PushKit {
    /// Wait after flow control (HTTP 503 or 429) when Huawei gives no `Retry-After`.
    package static let flowControlBackoff: TimeInterval = 60

    /// Classifies a Push Kit answer, v1 and v3 alike (Spec/providers.md "Huawei Push Kit").
    /// A request carries one token, so a token `msg` names as refused is the one sent:
    ///
    /// | answer | outcome |
    /// | --- | --- |
    /// | HTTP 503 or 429 (flow control) | transient for the whole app (`scope: .origin`), `Retry-After`, else 60 s |
    /// | 80000000, or 2xx without a code | delivered |
    /// | 80100000 partial success | the token listed → its reason (below); none listed → delivered |
    /// | 80300007 all tokens invalid | the token's reason, `illegal_token` when none is named: dead |
    /// | 80200001, 80200003 (v1 OAuth), 80200005 (v3 JWT expired), 401 | auth: renew the credential once |
    /// | 80300002, 80300036, 80300037, 403, 404 | auth: configuration |
    /// | 80300008 | rejected: too large |
    /// | 80300011 (v1 no high-priority right) | rejected |
    /// | other 801xxxxx, 80300010, other 4xx | rejected (token kept) |
    /// | 81000001, 80600003, 5xx | transient, `Retry-After` honoured |
    ///
    /// A refused token's reason: `illegal_token`, `tokenFormatError`, `tokenPlatformNotSupport`
    /// and `noRight` (the token is not this project's, or predates an upgrade to HarmonyOS NEXT)
    /// prune it; `disableSendHuaweiMsgBecauseOfPenalty` and `appinfoError` are configuration;
    /// any other (`noPushTypeRight`, `countryNotSupport`, …) rejects the push and keeps the token.
    package static func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        let body = PushKitAnswer(answer.body)
        let retryAfter = RetryAfter.delay(answer.header("retry-after"), now: now)
        let detail = body?.code ?? String(answer.status)
        func reason(_ code: DeliveryReason.Code, _ detail: String = detail) -> DeliveryReason {
            DeliveryReason(code, detail: detail)
        }

        if answer.status == 503 || answer.status == 429 {
            return .transient(reason(.pushkitFlowControl), retryAfter: retryAfter ?? flowControlBackoff, scope: .origin)
        }
        switch body?.code {
        case "80000000":
            return .delivered
        case "80100000":
            guard let refusal = body?.refusal else { return .delivered }
            return refused(refusal)
        case "80300007":
            return refused(body?.refusal ?? "illegal_token")
        case "80200001", "80200003", "80200005":
            return .auth(reason(.pushkitCredentialRefused), .refresh)
        case "80300002", "80300036", "80300037":
            return .auth(reason(.pushkitPermissionDenied), .configuration)
        case "80300008":
            return .rejected(reason(.pushkitPayloadTooLarge))
        case "80300011":
            return .rejected(reason(.pushkitNoRight))
        case "81000001", "80600003":
            return .transient(reason(.pushkitInternal), retryAfter: retryAfter)
        case let code? where code.hasPrefix("801") || code == "80300010":
            return .rejected(reason(.pushkitInvalidRequest))
        default:
            break
        }
        switch answer.status {
        case 200..<300 where body?.code == nil:
            return .delivered
        case 401:
            return .auth(reason(.pushkitCredentialRefused), .refresh)
        case 403, 404:
            return .auth(reason(answer.status == 403 ? .pushkitPermissionDenied : .pushkitNotFound), .configuration)
        case 500..<600:
            return .transient(reason(.pushkitInternal), retryAfter: retryAfter)
        case 400..<500:
            return .rejected(reason(.pushkitInvalidRequest))
        default:
            return .rejected(reason(.pushkitHTTPError))
        }

        /// What a refusal of the token with Huawei's `reason` comes to.
        func refused(_ why: String) -> DeliveryOutcome {
            switch why {
            case "illegal_token", "tokenFormatError", "tokenPlatformNotSupport", "noRight":
                return .dead(reason(.pushkitInvalidToken, why))
            case "disableSendHuaweiMsgBecauseOfPenalty", "appinfoError":
                return .auth(reason(.pushkitPermissionDenied, why), .configuration)
            default:
                return .rejected(reason(.pushkitNoRight, why))
            }
        }
    }
}
