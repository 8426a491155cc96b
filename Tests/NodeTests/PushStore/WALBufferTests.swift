import Foundation
import Testing
@testable import PushStore

/// The WAL buffer VFS (`CSQLiteWALBuffer/wal_buffer.c`) under a read-write `SQLiteConnection`:
/// a commit's frames are in the WAL file when its `COMMIT` returns, and what it writes reads back
/// the same from a connection on SQLite's own VFS, however large the transaction.
@Suite struct WALBufferTests {
    private static let frameSize = 24 + 4096
    private static let walHeader = 32

    private func open(_ directory: TemporaryDirectory) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: directory.databasePath)
        try connection.execute("""
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA wal_autocheckpoint = 0;
            CREATE TABLE t (id INTEGER PRIMARY KEY, k BLOB UNIQUE, v BLOB);
            """)
        return connection
    }

    private func walSize(_ directory: TemporaryDirectory) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: directory.databasePath + "-wal")
        return (attributes[.size] as? NSNumber)?.intValue ?? -1
    }

    /// Each commit's frames, whole, are in the file as `COMMIT` returns (nothing left in a buffer for
    /// a later write to carry), and a reader on the default VFS sees the commit at once.
    @Test func aCommitIsInTheFileWhenItReturns() throws {
        let directory = TemporaryDirectory()
        let writer = try open(directory)
        let reader = try SQLiteConnection(path: directory.databasePath, readOnly: true)
        var previous = try walSize(directory)
        var rows = 0
        for commit in 1...40 {
            try writer.run("BEGIN IMMEDIATE")
            for _ in 0..<(commit % 4 + 1) {
                try writer.run("INSERT INTO t (k, v) VALUES (randomblob(16), randomblob(?))", [.int(100 * commit)])
                rows += 1
            }
            try writer.run("COMMIT")
            let size = try walSize(directory)
            #expect(size > previous, "commit \(commit)")
            #expect((size - Self.walHeader) % Self.frameSize == 0, "commit \(commit): \(size) bytes is not whole frames")
            previous = size
            #expect(try reader.queryFirst("SELECT count(*) FROM t") { $0.int(0) } == rows)
        }
    }

    /// A transaction larger than the buffer (128 KiB), also one that SQLite spills to the WAL before
    /// its commit (a small page cache), commit and read back whole.
    @Test func aTransactionLargerThanTheBufferReadsBack() throws {
        let directory = TemporaryDirectory()
        let writer = try open(directory)
        try writer.execute("PRAGMA cache_size = 16")
        try writer.run("BEGIN IMMEDIATE")
        for index in 0..<600 {
            try writer.run("INSERT INTO t (id, k, v) VALUES (?, randomblob(16), hex(zeroblob(1500)) || ?)", [.int(index), .int(index)])
        }
        try writer.run("COMMIT")
        try writer.run("UPDATE t SET v = hex(zeroblob(5)) || id WHERE id % 3 = 0")
        let reader = try SQLiteConnection(path: directory.databasePath, readOnly: true)
        // `hex(zeroblob(n)) || id` is 2n characters and the digits of the id.
        let expected = (0..<600).reduce(0) { $0 + ($1 % 3 == 0 ? 10 : 3000) + String($1).count }
        #expect(try reader.queryFirst("SELECT count(*), sum(length(v)) FROM t") { [$0.int(0), $0.int(1)] } == [600, expected])
        #expect(try reader.queryFirst("PRAGMA integrity_check") { $0.text(0) } == "ok")
        try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try walSize(directory) == 0)
        #expect(try reader.queryFirst("SELECT count(*) FROM t WHERE id % 3 = 0 AND length(v) < 20") { $0.int(0) } == 200)
    }
}
