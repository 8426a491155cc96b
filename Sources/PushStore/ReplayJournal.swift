#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The single-node replay window on disk, so that a signed request accepted before a restart is
/// refused `auth.replayed` after it as before it (PROTOCOL §2). An append-only file of fixed
/// 24-byte records — the pair's 128-bit digest (`MemoryReplayCache.Key`) and the Unix second it
/// may be forgotten — in two segments: `replay-window` takes the appends, `replay-window.old` the
/// previous period's.
///
/// Each accepted pair is one `write(2)` of 24 bytes, not synced: it survives the process (a crash,
/// `kill -9`, a restart), not the machine losing power. Every `rotation` seconds the old segment is
/// dropped and the current one becomes the old one; with `rotation` at least the longest a pair
/// is kept (twice the clock skew: `created` may be that far ahead of the clock), a dropped segment
/// holds only expired pairs. At open, both segments are read, the unexpired pairs kept, and written
/// afresh into the current segment.
///
/// Not thread-safe: `JournaledReplayCache` serializes its calls.
package final class ReplayJournal {
    package struct Entry: Equatable, Sendable {
        package var key: MemoryReplayCache.Key
        package var expiresAt: Double
    }

    static let recordSize = 24
    static let currentName = "replay-window"
    static let oldName = "replay-window.old"

    /// The unexpired pairs found at open.
    package private(set) var restored: [Entry] = []
    private let directory: URL
    private let rotation: Double
    private var descriptor: Int32 = -1
    private var openedAt: Double

    package init(directory: String, rotation: Double, now: Double) throws {
        self.directory = URL(fileURLWithPath: directory)
        self.rotation = rotation
        self.openedAt = now
        let current = self.directory.appendingPathComponent(Self.currentName)
        let old = self.directory.appendingPathComponent(Self.oldName)
        restored = (Self.read(old) + Self.read(current)).filter { $0.expiresAt >= now }
        // Compact: the unexpired pairs into a fresh file, renamed over the current one; then the
        // old segment goes (a crash in between only leaves pairs to read twice).
        let fresh = self.directory.appendingPathComponent(Self.currentName + ".new")
        try Data(restored.flatMap(Self.encode)).write(to: fresh)
        guard rename(fresh.path, current.path) == 0 else { throw JournalError(operation: "rename", errno: errno) }
        unlink(old.path)
        try openCurrent()
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Appends the pair; false when the write failed (a full disk), and the pair then is not kept.
    package func append(_ entry: Entry, now: Double) -> Bool {
        if now - openedAt >= rotation { rotate(now: now) }
        guard descriptor >= 0 else { return false }
        let record = Self.encode(entry)
        let written = record.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        return written == record.count
    }

    private func rotate(now: Double) {
        let current = directory.appendingPathComponent(Self.currentName)
        let old = directory.appendingPathComponent(Self.oldName)
        close(descriptor)
        descriptor = -1
        // The old segment's pairs have all expired by now; the current one becomes the old one.
        _ = rename(current.path, old.path)
        openedAt = now
        try? openCurrent()
    }

    private func openCurrent() throws {
        let path = directory.appendingPathComponent(Self.currentName).path
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw JournalError(operation: "open", errno: errno) }
    }

    private static func read(_ url: URL) -> [Entry] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let bytes = [UInt8](data)
        // A torn last record (the process died inside a write) is ignored.
        return stride(from: 0, to: bytes.count - recordSize + 1, by: recordSize).map { offset in
            let field = { (at: Int) in bytes[(offset + at)..<(offset + at + 8)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
            return Entry(key: .init(high: field(0), low: field(8)), expiresAt: Double(Int64(bitPattern: field(16))))
        }
    }

    private static func encode(_ entry: Entry) -> [UInt8] {
        let expiry = UInt64(bitPattern: Int64(entry.expiresAt.rounded(.up)))
        return [entry.key.high, entry.key.low, expiry].flatMap { value in (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
    }
}

/// The replay journal could not be opened or renamed.
package struct JournalError: Error, CustomStringConvertible {
    let operation: String
    let errno: Int32
    package var description: String { "replay window file: \(operation) failed: \(String(cString: strerror(errno)))" }
}
