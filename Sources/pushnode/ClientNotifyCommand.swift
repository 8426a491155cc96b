import Foundation
import PushClient
import PushCrypto
import PushDelivery
import PushProtocol
import PushSupport

/// `pushnode client notify --account FILE [--node URL] (--space FILE | --space-metadata-key HEX
/// --read-key HEX)` and then one of:
///
/// - `--chat ID --text TEXT [--mention ID]… [--kind message|silent|call]` plus optional `--msg-id`,
///   `--sender-name`, `--chat-name`, `--space-name`, `--space-id`, `--device` (silent: the device to
///   skip), `--ttl` (call: the ring window, default 45): exactly what `PushSender`'s any chat calls
///   send (`NotifyBuilder`: any topics, payload budgeted to the node's limit and the provider
///   bound). `silent` is a read: a silent notify to the account's own identity topic carrying a
///   sealed read marker.
/// - `--payload-file F | --payload-json JSON | --wake` with `--topic T…` and optional `--group-id`,
///   `--kind message|silent|call|clear`, `--ttl`, `--replaces`, `--own-devices [--device ID]`: a push
///   of your own bytes (`ClientPushOptions`), sealed as they are; `--wake` sends none.
///
/// Sends each request once and prints `{"requests": [{"path", "status", "id", "duplicate",
/// "queued", "body", "dataKeys"}]}`: `body` is the exact JSON sent (resend it to see the node's
/// idempotency), `queued` the deliveries the node queued, and `dataKeys` the `x-any-*` keys a device
/// receives for it (PROTOCOL §5), ready for `client open`.
enum ClientNotifyCommand {
    static func run(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let keys = try ClientContext.spaceKeys(args)
        let account = context.account
        let build: @Sendable (Limits) throws -> [NotifyBuilder.Request]
        if args.options["chat"] != nil {
            let (call, space, chat) = try chatCall(args, keys: keys)
            build = { limits in try NotifyBuilder.requests(for: call, space: space, chat: chat, account: account, limits: limits) }
        } else {
            let push = try ClientPushOptions.push(args, me: context.accountID)
            build = { limits in try NotifyBuilder.requests(for: push, in: keys, account: account, limits: limits) }
        }

        let transport = context.transport
        let results = try context.call { () -> [[String: any Sendable]] in
            let limits = await CapabilitiesCache(transport: transport).limits()
            var results: [[String: any Sendable]] = []
            for request in try build(limits) {
                let response = try await transport.send(method: "POST", path: request.path, query: nil, body: request.body)
                guard response.status == 200,
                      let answer = try? JSON.decode(NotifyResponse.self, from: response.body) else {
                    throw CLIError("\(request.path): HTTP \(response.status) \(String(decoding: response.body, as: UTF8.self))",
                                   hint: ErrorHints.forCode(errorCode(response.body)))
                }
                results.append(["path": request.path, "status": response.status, "id": answer.id,
                                "duplicate": answer.duplicate, "queued": answer.queued,
                                "body": String(decoding: request.body, as: UTF8.self),
                                "dataKeys": dataKeys(body: request.body, silent: request.path.hasSuffix("/silent"), id: answer.id)])
            }
            return results
        }
        Output.json(["requests": results])
    }

    /// The `error.code` of a node's refusal (PROTOCOL §3.1), when the body is one.
    static func errorCode(_ body: [UInt8]) -> APIError.Code? {
        let object = JSON.object(body)
        return ((object?["error"] as? [String: Any])?["code"] as? String).map(APIError.Code.init(rawValue:))
    }

    /// The any chat call of `--chat`, `--text`, `--kind message|silent|call` and the rest.
    private static func chatCall(_ args: Arguments, keys: PushSpaceKeys) throws -> (NotifyBuilder.Call, PushSpace, PushChat) {
        let space = PushSpace(spaceId: args.options["space-id"] ?? keys.spaceKey, name: args.options["space-name"] ?? "",
                              keys: keys)
        let chat = PushChat(id: try args.required("chat"), name: args.options["chat-name"] ?? "")
        /// A call's text may be empty; a message needs one.
        let message = { (textRequired: Bool) throws -> OutgoingMessage in
            OutgoingMessage(id: args.options["msg-id"] ?? UUID().uuidString.lowercased(),
                            text: textRequired ? try args.required("text") : args.options["text"] ?? "",
                            senderName: args.options["sender-name"] ?? "")
        }
        switch args.options["kind"] ?? "message" {
        case "message": return (.message(try message(true), mentions: args.values("mention")), space, chat)
        case "silent": return (.read(skipDevice: args.options["device"]), space, chat)
        case "call":
            guard let ttl = Int(args.options["ttl"] ?? "45"), ttl > 0 else { throw CLIError("--ttl must be positive seconds") }
            return (.call(try message(false), invitees: args.values("mention"), ttl: ttl), space, chat)
        default: throw CLIError("--kind must be message, silent or call with --chat")
        }
    }

    /// The `x-any-*` keys a device gets for a Notify body (PROTOCOL §5).
    static func dataKeys(body: [UInt8], silent: Bool, id: String) -> [String: String] {
        let object = JSON.object(body) ?? [:]
        let kind = silent ? NotifyKind.silent : (object["kind"] as? String).flatMap(NotifyKind.init(rawValue:)) ?? .message
        var keys = ["x-any-type": kind.dataType, "x-any-id": id, "x-any-group-id": object["groupId"] as? String ?? ""]
        if let message = object["message"] as? [String: Any] {
            keys["x-any-payload"] = message["payload"] as? String
            keys["x-any-signature"] = message["signature"] as? String
            keys["x-any-key-id"] = message["keyId"] as? String
        }
        return keys
    }
}
