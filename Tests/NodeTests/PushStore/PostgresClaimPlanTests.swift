import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// A PostgreSQL claim is one statement (pick, mark, read); the rows it picked are found again
/// through the primary key, not by scanning the outbox, in the plan a reused prepared statement
/// gets, whose `LIMIT $3` the planner cannot read.
@Suite(.enabled(if: PGTestDatabase.isAvailable, "PUSHNODE_TEST_PG_URL is unset"))
struct PostgresClaimPlanTests {
    @Test func aClaimReadsItsRowsByKey() throws {
        let database = try PGTestDatabase()
        let store = try database.smallStore()  // creates the schema
        defer { store.close() }
        let connection = try database.connect()
        try connection.execute("""
            INSERT INTO notifications (id, kind, created_at, expires_at, pending) VALUES ('n', 'message', 0, 1, 20000);
            INSERT INTO outbox (notification, registration, provider, next_attempt_at, created_at, expires_at)
            SELECT 1, 'r' || a, 'fcm', a, 0, 1 FROM generate_series(1, 20000) a;
            ANALYZE outbox; ANALYZE notifications;
            PREPARE claim(text, bigint, int, bigint, text) AS \(PostgresStore.claimQuery(.all));
            """)
        let plan = try connection.plan(executing: "claim", "'fcm', 30000, 100, 1, 'x'", mode: "force_generic_plan")
        #expect(!plan.contains("Seq Scan on outbox"), "\(plan)")
        #expect(plan.components(separatedBy: "using outbox_pkey on outbox").count == 3, "\(plan)")  // the update and the read
        #expect(plan.contains("using outbox_due on outbox"), "\(plan)")
    }
}
