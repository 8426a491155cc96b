import Foundation
import PushCrypto
import PushProtocol

/// The node under test for `PushBench e2e`: the real `pushnode serve` binary in its own process,
/// configured by environment variables to send every provider's traffic to the sink, with rate
/// limits out of the way and its admin listener open for `/metrics`.
final class BenchNode {
    let port: Int
    let adminPort: Int
    private let process: Process

    var pid: Int32 { process.processIdentifier }

    init(binary: String, dataDir: String, sink: HTTP2Sink, storageURL: String?, engine: String, logFile: String) throws {
        port = try FreePort.pick()
        adminPort = try FreePort.pick()
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PUSHNODE_") }
        let settings: [String: String] = [
            "PUSHNODE_LISTEN": "127.0.0.1:\(port)", "PUSHNODE_ADMIN_LISTEN": "127.0.0.1:\(adminPort)",
            "PUSHNODE_DATA_DIR": dataDir, "PUSHNODE_LOG_LEVEL": "warn",
            "PUSHNODE_FCM_CREDENTIALS_PATH": sink.serviceAccountFile, "PUSHNODE_FCM_BASE_URL": sink.origin,
            "PUSHNODE_APNS_KEY_PATH": sink.apnsKeyFile, "PUSHNODE_APNS_KEY_ID": "BENCHKEY01",
            "PUSHNODE_APNS_TEAM_ID": "BENCHTEAM1", "PUSHNODE_APNS_TOPIC": "org.example.bench",
            "PUSHNODE_APNS_HOST": sink.origin, "PUSHNODE_TLS_CA_FILE": sink.caFile,
            "PUSHNODE_WEBPUSH_ALLOW_PRIVATE_ENDPOINTS": "true", "PUSHNODE_DELIVERY_HTTP_ENGINE": engine,
            "PUSHNODE_RATE_LIMITS_REGISTRATION_PER_MINUTE": "1000000000", "PUSHNODE_RATE_LIMITS_REGISTRATION_BURST": "1000000000",
            "PUSHNODE_RATE_LIMITS_NOTIFY_PER_SECOND": "1000000000", "PUSHNODE_RATE_LIMITS_NOTIFY_BURST": "1000000000",
            // The population's accounts all register from loopback: the new-account budget per address is off.
            "PUSHNODE_LIMITS_NEW_ACCOUNTS_PER_ADDRESS": "0",
        ]
        environment.merge(settings) { $1 }
        if let storageURL {
            environment["PUSHNODE_STORAGE_DRIVER"] = "postgres"
            environment["PUSHNODE_STORAGE_URL"] = storageURL
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["serve"]
        process.environment = environment
        FileManager.default.createFile(atPath: logFile, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: logFile)
        process.standardError = FileHandle(forWritingAtPath: logFile)
        try process.run()
        try waitUntilReady(timeout: 30, logFile: logFile)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// `/readyz` answers 200.
    private func waitUntilReady(timeout: Double, logFile: String) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            guard process.isRunning else {
                let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
                throw BenchFailure("pushnode exited \(process.terminationStatus) at start:\n\(log)")
            }
            if let connection = try? LoopbackConnection(port: port),
               let answer = try? connection.exchange(SignedRequest.get("/readyz")), answer.status == 200 {
                return
            }
            usleep(50_000)
        }
        throw BenchFailure("pushnode not ready after \(timeout) s")
    }

    /// The admin listener's `/metrics`, parsed.
    func metrics(over connection: LoopbackConnection) throws -> MetricsText {
        let answer = try connection.exchange(SignedRequest.get("/metrics"))
        guard answer.status == 200 else { throw BenchFailure("/metrics answered \(answer.status)") }
        return MetricsText(String(decoding: answer.body, as: UTF8.self))
    }
}

/// Prometheus text exposition, as much as the benchmark reads: sample lines and their labels.
struct MetricsText {
    private var samples: [(name: Substring, labels: [Substring: Substring], value: Double)] = []

    init(_ text: String) {
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let series = line[..<space]
            var labels: [Substring: Substring] = [:]
            var name = series
            if let open = series.firstIndex(of: "{"), series.last == "}" {
                name = series[..<open]
                for pair in series[series.index(after: open)..<series.index(before: series.endIndex)].split(separator: ",") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    labels[pair[..<equals]] = pair[pair.index(after: equals)...].dropFirst().dropLast()
                }
            }
            samples.append((name, labels, value))
        }
    }

    /// The sum of the samples of `name` whose labels include `labels`.
    func sum(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { sample in
            sample.name == name && labels.allSatisfy { sample.labels[Substring($0.key)] == Substring($0.value) }
        }.reduce(0) { $0 + $1.value }
    }

    /// A histogram's cumulative buckets `(le, count)` for the labels, `+Inf` as infinity, sorted.
    func buckets(_ name: String, _ labels: [String: String]) -> [(bound: Double, count: Double)] {
        samples.compactMap { sample -> (Double, Double)? in
            guard sample.name == name + "_bucket", let le = sample.labels["le"],
                  labels.allSatisfy({ sample.labels[Substring($0.key)] == Substring($0.value) }) else { return nil }
            return (le == "+Inf" ? .infinity : Double(le) ?? .nan, sample.value)
        }.sorted { $0.0 < $1.0 }
    }
}
