import Foundation
import Testing
@testable import PushMetrics

@Suite struct ProcessMetricsTests {
    final class Owner: Sendable {}

    /// The value of an unlabelled sample in Prometheus text.
    private func value(_ name: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) }
    }

    @Test func memoryAndFileDescriptorsAreReadFromProc() throws {
        let registry = MetricsRegistry()
        let owner = Owner()
        ProcessMetrics.register(in: registry, while: owner)
        // Other suites open and close files in parallel: only a lower bound is certain.
        let opened = try (0..<50).map { _ in try #require(FileHandle(forReadingAtPath: "/proc/self/statm")) }
        let text = registry.render()
        try opened.forEach { try $0.close() }
        let open = try #require(value("process_open_fds", in: text))
        #expect(open >= 50)
        #expect(try #require(value("process_max_fds", in: text)) >= open)
        #expect(try #require(value("process_resident_memory_bytes", in: text)) > 1_000_000)
        withExtendedLifetime(owner) {}
    }
}
