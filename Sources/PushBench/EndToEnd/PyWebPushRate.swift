import Foundation
import PushProtocol

/// The Web Push yardstick of `PushBench e2e`: one Python process with pywebpush preparing the
/// same pushes (`Tests/Bench/pywebpush_rate.py`: `WebPusher.encode`, aes128gcm, and a py_vapid
/// ES256 header per push, to the same subscriptions, `payloadBytes` each) as fast as it can.
/// Nothing is sent: pywebpush sends over HTTP/1.1 and the sink speaks HTTP/2 only.
enum PyWebPushRate {
    static let script = "Tests/Bench/pywebpush_rate.py"

    /// Pushes per second, or why it could not be measured (no venv, no pywebpush: `make bench`).
    static func measure(subscriptions: [[String: Any]], payloadBytes: Int, seconds: Double,
                        directory: String) -> Result<Double, BenchFailure> {
        let python = ProcessInfo.processInfo.environment["PUSHNODE_PYTHON"] ?? ".venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script) else {
            return .failure(BenchFailure("no \(python) or \(script) here (run from the repository, after make bench)"))
        }
        let input = directory + "/pywebpush-input.json"
        let request: [String: Any] = ["subscriptions": subscriptions, "payloadBytes": payloadBytes, "seconds": seconds]
        do {
            try Data(JSON.document(request)).write(to: URL(fileURLWithPath: input))
            let output = try Tools.run(python, [script, input])
            guard let rate = JSON.object(Array(output.utf8))?["rate"] as? Double else {
                return .failure(BenchFailure("pywebpush_rate.py: unexpected output:\n\(output)"))
            }
            return .success(rate)
        } catch let failure as BenchFailure {
            return .failure(failure)
        } catch {
            return .failure(BenchFailure("\(error)"))
        }
    }
}
