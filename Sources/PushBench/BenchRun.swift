import Foundation
import PushConfig
import PushNet
import PushService

/// What the in-process benches (`ingest`, `door`, `ingest --fill`) share: their flag parsing, their
/// scratch directory, the loopback node they start, and the threads they time.
enum BenchRun {
    /// Parses `--flag N` pairs whose values are all positive integers; `set` applies one flag and
    /// answers false for a flag it does not know. Nil on an unknown flag or a bad value.
    static func parsePositive<Options>(_ arguments: [String], into options: Options,
                                       _ set: (inout Options, String, Int) -> Bool) -> Options? {
        var options = options
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let text = rest.popFirst(), let value = Int(text), value > 0, set(&options, flag, value) else { return nil }
        }
        return options
    }

    /// A new empty directory under the temporary directory; the caller removes it.
    static func scratchDirectory(prefix: String = "pushbench") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A node on 127.0.0.1:0 over `dataDir`, without the admin listener, whose rate limits never bite.
    static func loopbackConfig(dataDir: String) -> NodeConfig {
        var config = NodeConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.adminListen = nil
        config.dataDir = dataDir
        config.rateLimits = RateLimitPolicy(registrationPerMinute: 1e9, registrationBurst: 1_000_000_000,
                                            notifyPerSecond: 1e9, notifyBurst: 1_000_000_000)
        config.limits.newAccountsPerAddress = 0  // every bench client is 127.0.0.1
        return config
    }

    /// Runs `work(index)` on `count` threads at once; returns the elapsed seconds, or the first error.
    static func onThreads(count: Int, _ work: @escaping @Sendable (Int) throws -> Void) throws -> Double {
        let failures = Locked([String]())
        let group = DispatchGroup()
        let started = DispatchTime.now().uptimeNanoseconds
        for index in 0..<count {
            group.enter()
            Thread {
                defer { group.leave() }
                do { try work(index) } catch { failures.withLock { $0.append("\(error)") } }
            }.start()
        }
        group.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if let failure = failures.withLock({ $0.first }) { throw LoopbackConnection.Failure(description: failure) }
        return seconds
    }
}
