import Foundation
import PushNode
import PushStore

/// `pushnode backup --to FILE [--config FILE]`: a consistent copy of the node's SQLite database,
/// taken with SQLite's online backup API while the node runs (`SQLiteBackup`), checked, then
/// renamed into place. Prints `{"backup", "pages", "bytes", "alsoKeep"}`: `alsoKeep` lists the key
/// files in `dataDir` that are not in the database and belong in the same backup (the VAPID key
/// above all: every browser subscription is bound to it).
///
/// PostgreSQL is refused: its database is backed up with `pg_dump`, the tool made for it.
func runBackup(_ args: Arguments) throws {
    let config = try loadConfig(args).config
    let destination = try args.required("to")
    guard config.storage.driver == .sqlite else {
        throw CLIError("backup copies the embedded SQLite database; with storage.driver postgres back up the database with "
                       + "pg_dump (e.g. pg_dump --format=custom --file=pushnode.dump \"$URL\"), see docs/self-hosting.md")
    }
    let source = config.dataDir + "/" + StoreFactory.sqliteFileName
    let result: SQLiteBackup.Result
    do { result = try SQLiteBackup.copy(from: source, to: destination) } catch {
        throw CLIError("backup of \(source) failed: \(error)")
    }
    let keys = [VAPIDKeyFile.path(for: config), AnySyncPeerKey.path(for: config)]
        .filter { FileManager.default.fileExists(atPath: $0) }
    Output.json(["backup": destination, "pages": result.pages, "bytes": result.bytes, "alsoKeep": keys])
}
