import Foundation
import PushClient
import PushCrypto
import PushProtocol
import PushSupport

/// `pushnode client reconcile --state FILE --account FILE [--node URL] [--ca-file PEM]
/// [--poll-ms 1000] [--tick-seconds 300] [--once]`: the app's reconcile loop as a process, for one
/// account and device. Spaces, chats and modes come from the JSON state file (`ClientState`), which
/// is re-read whenever its contents change (checked every `--poll-ms`); a change triggers a pass,
/// and a 5-minute tick makes one too. Every pass is logged on stderr as `event=reconcile_pass`,
/// every SubscribeAll as `event=subscribe_all` (counts only, never keys or tokens). A state file
/// that does not parse is logged (`event=state_invalid`) and the last good one kept.
///
/// SIGHUP is ignored (nothing to reopen); SIGTERM/SIGINT end it.
///
/// `--once`: one pass, printed as JSON (`{"result", "count", "added", "removed"}`), then exit.
enum ClientReconcileCommand {
    static func run(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let path = try args.required("state")
        let poll = try positive(args, "poll-ms", default: 1000)
        let tick = try positive(args, "tick-seconds", default: 300)
        // Long-lived like the node, so its lines start with the time as the node's do.
        let log = PushLog { line in FileHandle.standardError.write(Data((Timestamp.rfc3339(Date()) + " " + line + "\n").utf8)) }
        let source = StateFileSource()
        var state = try ClientState.read(path)
        try source.update(state)

        let transport = context.transport
        let accountID = context.accountID
        let reconciler = Reconciler(transport: transport, accountID: accountID, source: source,
                                    tickInterval: args.switches.contains("once") ? nil : .seconds(tick), log: log,
                                    onPass: { pass in log.event("reconcile_pass", describe(pass).map { ($0.key, "\($0.value)") }.sorted { $0.0 < $1.0 }) })
        let subscriber = PushSubscriber(transport: transport, accountID: accountID, reconciler: reconciler,
                                        retry: RetryPolicy.fixed(attempts: 1), log: log)

        if args.switches.contains("once") {
            if let token = state.token { try register(token, subscriber, context) }
            let pass = try context.call { await reconciler.reconcile(.start) }
            if case .failed(let error) = pass.result { throw context.failure(error) }
            Output.json(describe(pass))
            return
        }

        // SIGHUP (a closed terminal, `systemctl reload`) is ignored: its default would kill the
        // loop, and there is nothing to reopen — the lines go to standard error.
        signal(SIGHUP, SIG_IGN)
        if let token = state.token { try? register(token, subscriber, context) }
        let running = Task { await reconciler.run() }
        var lastContents = FileManager.default.contents(atPath: path)
        while true {
            Thread.sleep(forTimeInterval: Double(poll) / 1000)
            let contents = FileManager.default.contents(atPath: path)
            guard contents != lastContents else { continue }
            lastContents = contents
            do {
                let next = try ClientState.read(path)
                try source.update(next)
                if next.token != state.token, let token = next.token {
                    try? register(token, subscriber, context)  // triggers .tokenChanged
                }
                if next.spaces != state.spaces { reconciler.trigger(.spacesChanged) }
                state = next
            } catch {
                log.event("state_invalid", [("message", "\(error)")])
            }
        }
        _ = running
    }

    private static func register(_ token: ClientState.Token, _ subscriber: PushSubscriber, _ context: ClientContext) throws {
        guard let platform = Platform(rawValue: token.platform) else { throw CLIError("token.platform is not a platform") }
        _ = try context.call {
            try await subscriber.setToken(.init(deviceId: token.deviceId, platform: platform, token: token.token,
                                                p256dh: token.p256dh, auth: token.auth, appId: token.appId,
                                                environment: token.environment))
        }
    }

    private static func describe(_ pass: Reconciler.Pass) -> [String: any Sendable] {
        var out: [String: any Sendable] = ["trigger": pass.trigger.rawValue]
        switch pass.result {
        case .unchanged(let count):
            out["result"] = "unchanged"
            out["count"] = count
        case let .subscribed(count, added, removed):
            out["result"] = "subscribed"
            out["count"] = count
            out["added"] = added
            out["removed"] = removed
        case .failed(let error):
            out["result"] = "failed"
            out["code"] = error.apiCode?.rawValue ?? error.code.rawValue
        }
        if !pass.fallbacks.isEmpty { out["fallbacks"] = pass.fallbacks.count }
        return out
    }

    private static func positive(_ args: Arguments, _ name: String, default value: Int) throws -> Int {
        guard let text = args.options[name] else { return value }
        guard let n = Int(text), n > 0 else { throw CLIError("--\(name) must be a positive integer") }
        return n
    }
}
