import Foundation
import PushClient
import PushCrypto
import PushProtocol
import PushSupport

/// `pushnode client notify --account FILE [--node URL] --space-metadata-key HEX --read-key HEX
/// --chat ID --text TEXT [--mention ID]… [--kind message|silent|call]` plus optional
/// `--msg-id`, `--sender-name`, `--chat-name`, `--space-name`, `--space-id`, `--device`
/// (silent: the device to skip), `--ttl` (call: the ring window, default 45).
///
/// Builds exactly what `PushSender` sends (`NotifyBuilder`: topics, payload budgeted to the
/// node's limit and the provider bound, sealed, signed), sends each request once and prints
/// `{"requests": [{"path", "status", "id", "duplicate", "body", "dataKeys"}]}`: `body` is the exact
/// JSON sent (resend it to see the node's idempotency) and `dataKeys` the `x-any-*` keys a device
/// receives for it (PROTOCOL §5), ready for `client open`. `silent` is a read: a silent notify to
/// the account's own identity topic carrying a sealed read marker.
enum ClientNotifyCommand {
    static func run(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let pushKey = try ClientContext.spacePushKey(args)
        let payloadKey = try ClientContext.payloadKey(args)
        let space = PushSpace(spaceId: args.options["space-id"] ?? pushKey.spaceKey, name: args.options["space-name"] ?? "",
                              signer: pushKey, sealer: payloadKey)
        let chat = PushChat(id: try args.required("chat"), name: args.options["chat-name"] ?? "")
        let kind = args.options["kind"] ?? "message"
        /// A call's text may be empty; a message needs one.
        let message = { (textRequired: Bool) throws -> OutgoingMessage in
            OutgoingMessage(id: args.options["msg-id"] ?? UUID().uuidString.lowercased(),
                            text: textRequired ? try args.required("text") : args.options["text"] ?? "",
                            senderName: args.options["sender-name"] ?? "")
        }
        let call: NotifyBuilder.Call
        switch kind {
        case "message": call = .message(try message(true), mentions: args.values("mention"))
        case "silent": call = .read(skipDevice: args.options["device"])
        case "call":
            guard let ttl = Int(args.options["ttl"] ?? "45"), ttl > 0 else { throw CLIError("--ttl must be positive seconds") }
            call = .call(try message(false), invitees: args.values("mention"), ttl: ttl)
        default: throw CLIError("--kind must be message, silent or call")
        }

        let transport = context.transport
        let account = context.account
        let results = try context.call { () -> [[String: any Sendable]] in
            let limits = await CapabilitiesCache(transport: transport).limits()
            let requests = try NotifyBuilder.requests(for: call, space: space, chat: chat, account: account, limits: limits)
            var results: [[String: any Sendable]] = []
            for request in requests {
                let response = try await transport.send(method: "POST", path: request.path, query: nil, body: request.body)
                guard response.status == 200,
                      let answer = try? JSONDecoder().decode(NotifyResponse.self, from: Data(response.body)) else {
                    throw CLIError("\(request.path): HTTP \(response.status) \(String(decoding: response.body, as: UTF8.self))",
                                   hint: ErrorHints.forCode(errorCode(response.body)))
                }
                results.append(["path": request.path, "status": response.status, "id": answer.id,
                                "duplicate": answer.duplicate, "body": String(decoding: request.body, as: UTF8.self),
                                "dataKeys": dataKeys(body: request.body, silent: request.path.hasSuffix("/silent"), id: answer.id)])
            }
            return results
        }
        Output.json(["requests": results])
    }

    /// The `error.code` of a node's refusal (PROTOCOL §3.1), when the body is one.
    static func errorCode(_ body: [UInt8]) -> String? {
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
        return (object?["error"] as? [String: Any])?["code"] as? String
    }

    /// The `x-any-*` keys a device gets for a Notify body (PROTOCOL §5).
    static func dataKeys(body: [UInt8], silent: Bool, id: String) -> [String: String] {
        let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        let kind = object["kind"] as? String
        var keys = ["x-any-type": silent ? "silent" : (kind == "call" ? "call" : "normal"), "x-any-id": id]
        if let groupId = object["groupId"] as? String { keys["x-any-group-id"] = groupId }
        if let message = object["message"] as? [String: Any] {
            keys["x-any-payload"] = message["payload"] as? String
            keys["x-any-signature"] = message["signature"] as? String
            keys["x-any-key-id"] = message["keyId"] as? String
        }
        return keys
    }
}
