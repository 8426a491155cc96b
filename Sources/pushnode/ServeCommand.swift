import Foundation
import PushConfig
import PushNode
import PushSupport

/// `pushnode serve [--config FILE]`: runs the node until SIGTERM/SIGINT (SIGHUP is logged, never
/// fatal). Without a config file
/// it runs on the embedded default (127.0.0.1:8765, data under ./pushnode-data); `PUSHNODE_*`
/// variables override either.
func runServe(_ args: Arguments) throws {
    // First, before any thread exists: every thread then blocks SIGTERM/SIGINT/SIGHUP and the node
    // takes them with sigwait (see ShutdownSignals).
    let signals = ShutdownSignals()
    let loaded = try loadConfig(args)
    let log = LogSink.standardError
    for warning in loaded.warnings { log("level=warn event=config message=\(LogSink.quoted(warning))") }
    let node = Node(config: loaded.config, log: log)
    do {
        try node.start()
    } catch {
        throw CLIError(error.description)
    }
    node.runUntilSignal(signals)
}

/// The config named by `--config`, or the embedded default, with environment overrides.
func loadConfig(_ args: Arguments) throws -> ConfigLoader.Loaded {
    do {
        return try ConfigLoader.load(path: args.options["config"])
    } catch {
        throw CLIError("invalid configuration:\n" + error.description)
    }
}
