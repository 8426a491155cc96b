import Foundation
import PushClient
import PushProtocol

/// The options of `pushnode client notify` that make a push of your own bytes (`OutgoingPush`):
/// `--payload-file F` (the file's bytes), `--payload-json JSON` (the text's UTF-8 bytes exactly as
/// given, once it parses as JSON) or `--wake` (no payload: a content-free wake), with `--topic T…`,
/// `--group-id G`, `--kind message|silent|call|clear`, `--ttl S`, `--replaces`, and
/// `--own-devices [--device ID]` for `POST /v1/notify/silent` (topic: your account id unless given).
enum ClientPushOptions {
    static func push(_ args: Arguments, me: String) throws -> OutgoingPush {
        let payload: [UInt8]?
        if let path = args.options["payload-file"] {
            guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read --payload-file \(path)") }
            payload = Array(data)
        } else if let text = args.options["payload-json"] {
            guard JSON.value(text.utf8) != nil else {
                throw CLIError("--payload-json is not JSON (use --payload-file for other bytes)")
            }
            payload = Array(text.utf8)
        } else {
            payload = nil  // --wake
        }

        var ttl: Int?
        if let text = args.options["ttl"] {
            guard let seconds = Int(text) else { throw CLIError("--ttl must be whole seconds") }
            ttl = seconds
        }
        var topics = args.values("topic")
        let route: OutgoingPush.Route
        if args.switches.contains("own-devices") {
            guard args.options["kind"].map({ $0 == "silent" }) ?? true else {
                throw CLIError("--own-devices is always silent: drop --kind")
            }
            route = .ownDevices(skipDevice: args.options["device"])
            if topics.isEmpty { topics = [me] }
        } else {
            guard args.options["device"] == nil else { throw CLIError("--device goes with --own-devices (or --chat --kind silent)") }
            guard let kind = NotifyKind(rawValue: args.options["kind"] ?? "message") else {
                throw CLIError("--kind must be message, silent, call or clear")
            }
            guard !topics.isEmpty else { throw CLIError("give --topic T (repeatable)") }
            route = .notify(kind)
        }
        return OutgoingPush(route, topics: topics, payload: payload, groupId: args.options["group-id"], ttl: ttl,
                            replaces: args.switches.contains("replaces") ? true : nil)
    }
}
