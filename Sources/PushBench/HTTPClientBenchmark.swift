import Dispatch
import Foundation
import HTTPClient
import PushSupport

/// `PushBench http`: requests/s through the HTTP client to one URL, keeping a fixed number
/// of requests in flight with the callback API (the way the delivery engine drives it).
enum HTTPClientBenchmark {
    struct Options {
        var url = ""
        var caFile: String?
        var requests = 20_000
        var concurrency = 500
        var method = "POST"
        var bodyBytes = 256
        var connections = 1
        var engine = HTTPClientConfiguration.HTTPSEngine.nghttp2
    }

    static let usage = """
        usage: PushBench http --url URL [--ca FILE] [--requests N] [--concurrency C]
                              [--method POST] [--body-bytes B] [--connections K] [--engine nghttp2|libcurl]
        """

    static func parse(_ arguments: [String]) -> Options? {
        var options = Options()
        var index = 0
        while index + 1 < arguments.count {
            let value = arguments[index + 1]
            switch arguments[index] {
            case "--url": options.url = value
            case "--ca": options.caFile = value
            case "--requests": options.requests = Int(value) ?? options.requests
            case "--concurrency": options.concurrency = Int(value) ?? options.concurrency
            case "--method": options.method = value
            case "--body-bytes": options.bodyBytes = Int(value) ?? options.bodyBytes
            case "--connections": options.connections = Int(value) ?? options.connections
            case "--engine":
                guard let engine = HTTPClientConfiguration.HTTPSEngine(rawValue: value) else { return nil }
                options.engine = engine
            default: return nil
            }
            index += 2
        }
        return options.url.isEmpty ? nil : options
    }

    /// Runs the benchmark and prints one JSON line of figures.
    static func run(_ options: Options) throws {
        let client = try HTTPClient(configuration: HTTPClientConfiguration(
            requestTimeout: .seconds(60), caFile: options.caFile, maxConnectionsPerHost: options.connections,
            httpsEngine: options.engine))
        let request = ClientRequest(
            method: options.method, url: options.url,
            headers: [("content-type", "application/octet-stream")],
            body: [UInt8](repeating: 0x61, count: options.method == "GET" ? 0 : options.bodyBytes))
        let state = Protected((sent: 0, done: 0, failed: 0, statuses: [Int: Int](), errors: [String: Int]()))
        let finished = DispatchSemaphore(value: 0)
        let total = options.requests

        @Sendable func sendNext() {
            let go = state.withLock { s -> Bool in
                guard s.sent < total else { return false }
                s.sent += 1
                return true
            }
            guard go else { return }
            client.send(request) { result in
                let last = state.withLock { s -> Bool in
                    s.done += 1
                    switch result {
                    case .success(let response): s.statuses[response.status, default: 0] += 1
                    case .failure(let error):
                        s.failed += 1
                        s.errors[error.code, default: 0] += 1
                    }
                    return s.done == total
                }
                if last { finished.signal() } else { sendNext() }
            }
        }

        let clock = ContinuousClock()
        let start = clock.now
        for _ in 0..<min(options.concurrency, total) { sendNext() }
        finished.wait()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let figures = state.withLock { $0 }
        let stats = client.stats
        let statuses = figures.statuses.map { "\"\($0.key)\":\($0.value)" }.sorted().joined(separator: ",")
        let errors = figures.errors.map { "\"\($0.key)\":\($0.value)" }.sorted().joined(separator: ",")
        print("""
            {"benchmark":"http","engine":"\(options.engine.rawValue)","requests":\(total),"concurrency":\(options.concurrency),\
            "seconds":\(String(format: "%.3f", seconds)),"requestsPerSecond":\(Int(Double(total) / seconds)),\
            "failed":\(figures.failed),"errors":{\(errors)},"statuses":{\(statuses)},"connectionsOpened":\(stats.connectionsOpened),\
            "retries":\(stats.retries)}
            """)
        client.shutdown()
    }
}
