import Foundation

extension PostgresStore: SharedCredentialStore {
    package func sharedCredential(_ name: String) throws -> SharedCredential? {
        try read { db in
            let rows = try db.query("SELECT value, issued_at, after_refusal FROM shared_credentials WHERE name = $1", [.text(name)])
            guard rows.rowCount > 0 else { return nil }
            let row = rows.row(0)
            return SharedCredential(value: row.text(0), issuedAt: Date(unixMilliseconds: row.int64(1)), afterRefusal: row.bool(2))
        }
    }

    package func replaceSharedCredential(_ name: String, expected: SharedCredential?, with new: SharedCredential) throws -> Bool {
        try write { db in
            let values: [PGValue] = [.text(name), .text(new.value), .integer(new.issuedAt.unixMilliseconds),
                                     .text(new.afterRefusal ? "true" : "false")]
            guard let expected else {
                return try db.run("""
                    INSERT INTO shared_credentials (name, value, issued_at, after_refusal) VALUES ($1, $2, $3, $4)
                    ON CONFLICT (name) DO NOTHING
                    """, values) == 1
            }
            return try db.run("""
                UPDATE shared_credentials SET value = $2, issued_at = $3, after_refusal = $4
                WHERE name = $1 AND value = $5
                """, values + [.text(expected.value)]) == 1
        }
    }
}
