import Foundation
import PushCrypto
import PushProtocol
import PushService

/// `PushBench ingest --fill N`: Notify through `PushService` (no HTTP) from concurrent threads
/// until the outbox holds at least N rows, then the SQLite file size and the process RSS.
enum OutboxFill {
    static func run(fixture: IngestFixture, rows: Int, clients: Int) throws {
        guard let service = fixture.service else { return }
        let notifies = (rows + fixture.fanOut - 1) / fixture.fanOut
        let perClient = (notifies + clients - 1) / clients
        print("== ingest --fill: \(perClient * clients) Notify × fan-out \(fixture.fanOut) through PushService, \(clients) threads"
              + (fixture.isPortable ? ", portable fan-out (recipients into Swift, a row insert each)" : ", fan-out INSERT … SELECT in SQLite"))
        let rssBefore = residentBytes()
        let seconds = try BenchRun.onThreads(count: clients) { _ in
            let sender = AccountKey.generate()
            for _ in 0..<perClient { _ = try service.notify(fixture.notify(from: sender), caller: sender.accountID) }
        }
        let depth = try fixture.store!.outboxStatistics().values.reduce(0) { $0 + $1.depth }
        let sizes = fixture.fileSizes
        let rss = residentBytes()
        print(String(format: "filled %d queued deliveries in %.1f s (%.0f Notify/s, %.0f rows/s)", depth, seconds,
                     Double(perClient * clients) / seconds, Double(depth) / seconds))
        print(String(format: "SQLite file %.1f MiB + WAL %.1f MiB = %.0f bytes/row", mib(sizes.database), mib(sizes.wal),
                     Double(sizes.database + sizes.wal) / Double(max(depth, 1))))
        print(String(format: "RSS %.1f MiB after the fill (%.1f MiB before)", mib(rss), mib(rssBefore)))
        fixture.closeStore()
    }

    /// VmRSS of this process from /proc/self/status.
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return 0 }
        return kib * 1024
    }

    private static func mib(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
}
