import Foundation
import PushConfig
import PushNode
import PushSupport

/// `pushnode serve [--config FILE]`: runs the node until SIGTERM/SIGINT (SIGHUP reopens `log.file`,
/// never fatal). Without a config file
/// it runs on the embedded default (127.0.0.1:8765, data under ./pushnode-data); `PUSHNODE_*`
/// variables override either.
func runServe(_ args: Arguments) throws {
    // First, before any thread exists: every thread then blocks SIGTERM/SIGINT/SIGHUP and the node
    // takes them with sigwait (see ShutdownSignals).
    let signals = ShutdownSignals()
    let loaded = try loadConfig(args)
    let output: LogOutput
    do { output = loaded.config.log.file.isEmpty ? .standardError : try LogOutput(path: loaded.config.log.file) } catch {
        throw CLIError(error.description)
    }
    let log = LogSink.writing(to: output, format: loaded.config.log.format, minimum: loaded.config.log.level)
    signals.onReload { [output] in try output.reopen() }
    for warning in loaded.warnings { log(.warn, "config", ["message": "\(warning)"]) }
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
