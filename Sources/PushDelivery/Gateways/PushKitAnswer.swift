import Foundation
import PushProtocol

/// A Huawei Push Kit answer body, the same for HMS Core v1 (`huawei`) and HarmonyOS v3
/// (`harmony`): `{"code": "80000000", "msg": "Success", "requestId": "…"}`.
///
/// On a partial success (80100000) or when every token was refused (80300007) `msg` is itself a
/// JSON string naming the refused tokens: v1 `{"success":1,"failure":1,"illegal_tokens":["…"]}`,
/// v3 `{"success":1,"failure":1,"illegalTokens":{"tokenFormatError":["…"]}}` (Spec/providers.md
/// "Huawei Push Kit": the v3 shape from Huawei's response page, the v1 one as gorush, Huawei's
/// own demos and sygnal read it).
struct PushKitAnswer: Equatable {
    /// The eight-digit result code, e.g. `80000000`.
    var code: String?
    /// The refused tokens named in `msg`, each with Huawei's reason (`illegal_token` for v1,
    /// which gives none); empty when `msg` names none.
    var refusedTokens: [String: String]

    /// Huawei's reason for the refused token, when `msg` names one: the pushnode gateways send
    /// one token per request, so it is that token's.
    var refusal: String? { refusedTokens.values.min() }

    /// Nil when the body is not a JSON object (a proxy's HTML page, an empty 503).
    init?(_ body: [UInt8]) {
        guard !body.isEmpty,
              let root = JSON.object(body) else { return nil }
        code = (root["code"] as? String) ?? (root["code"] as? NSNumber)?.stringValue
        refusedTokens = [:]
        guard let msg = root["msg"] as? String, msg.hasPrefix("{"),
              let inner = JSON.object(msg.utf8) else { return }
        for token in inner["illegal_tokens"] as? [String] ?? [] { refusedTokens[token] = "illegal_token" }
        for (reason, tokens) in inner["illegalTokens"] as? [String: Any] ?? [:] {
            for token in tokens as? [String] ?? [] { refusedTokens[token] = reason }
        }
    }
}
