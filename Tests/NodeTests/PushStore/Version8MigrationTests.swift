import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// Schema version 8 (issue 25) declares topics small to PostgreSQL's planner, so a Notify's
/// recipients are looked up by index however skewed the store: next to a topic of 20,000
/// subscribers (which `ANALYZE` samples as nearly the only topic), a topic of three is read through
/// `subscriptions_by_topic` and `registrations_by_account`, never by scanning either table, in the
/// plan a reused prepared statement gets (generic) and in the one for the values (custom).
@Suite(.enabled(if: PGTestDatabase.isAvailable, "PUSHNODE_TEST_PG_URL is unset"))
struct Version8MigrationTests {
    @Test func aSmallTopicBesideAHugeOneIsReadByIndex() throws {
        let database = try PGTestDatabase()
        let store = try database.smallStore()
        defer { store.close() }
        let (bulk, small) = (ref(1, "bulk"), ref(2, "small"))
        let connection = try database.connect()
        try connection.execute("""
            INSERT INTO registrations (id, account, device_id, platform, token, app_id, environment, created_at, updated_at)
            SELECT 'r' || a, 'a' || a, 'd', 'android', 't' || a, 'default', '', 0, 0 FROM generate_series(1, 20000) a;
            INSERT INTO subscriptions SELECT 'a' || a, '\(bulk.spaceKey.string)', 'bulk' FROM generate_series(1, 20000) a;
            INSERT INTO subscriptions SELECT 'a' || a, '\(small.spaceKey.string)', 'small' FROM generate_series(1, 3) a;
            ANALYZE registrations; ANALYZE subscriptions;
            PREPARE recipients(text[], text[]) AS \(PostgresStore.recipientsSQL);
            """)
        let arguments = "'{\(small.spaceKey.string)}', '{small}'"
        for (mode, values) in [("force_generic_plan", "NULL, NULL"), ("force_custom_plan", arguments)] {
            let plan = try connection.plan(executing: "recipients", values, mode: mode)
            #expect(plan.contains("using subscriptions_by_topic on subscriptions"), "\(mode)\n\(plan)")
            #expect(plan.contains("Index Cond: ((space_key = t.space_key) AND (topic = t.topic))"), "\(mode)\n\(plan)")
            #expect(plan.contains("using registrations_by_account on registrations"), "\(mode)\n\(plan)")
            #expect(!plan.contains("Seq Scan") && !plan.contains("Parallel"), "\(mode)\n\(plan)")
        }
        #expect(Set(try store.recipients(of: [small]).map(\.registrationId)) == ["r1", "r2", "r3"])
        #expect(try store.recipients(of: [bulk, small]).count == 20000)
    }

    /// A version-7 database migrates: the declaration is in place and its subscriptions read as before.
    @Test func version7SubscriptionsSurvive() throws {
        let database = try PGTestDatabase()
        let connection = try database.connect()
        try connection.execute("CREATE TABLE pushnode_schema (version integer NOT NULL); INSERT INTO pushnode_schema VALUES (7)")
        for migration in PostgresMigrations.all.prefix(7) { try connection.execute(migration) }
        try connection.execute("""
            INSERT INTO registrations (id, account, device_id, platform, token, app_id, environment, created_at, updated_at)
            VALUES ('r0', 'A', 'd0', 'android', 'tok-0', 'default', '', 0, 0), ('r1', 'B', 'd1', 'ios', 'tok-1', 'default', '', 0, 0);
            INSERT INTO subscriptions VALUES ('A', '\(spaceKey(1).string)', 'chats'), ('B', '\(spaceKey(1).string)', 'chats');
            """)
        let store = try database.smallStore()
        defer { store.close() }
        #expect(try connection.query("SELECT version FROM pushnode_schema").row(0).int(0) == 8)
        let options = try connection.query("""
            SELECT attoptions::text FROM pg_attribute WHERE attrelid = to_regclass('subscriptions') AND attname = 'topic'
            """).row(0).text(0)
        #expect(options == "{n_distinct=-0.1}")
        #expect(Set(try store.recipients(of: [ref(1, "chats")]).map(\.registrationId)) == ["r0", "r1"])
    }
}
