/// The PostgreSQL schema as an ordered list of migrations, the same idea as `SQLiteMigrations`:
/// `pushnode_schema.version` records how many have been applied, and a start applies the rest in
/// one transaction. Several nodes starting together are serialized by a transaction-scoped advisory
/// lock, so exactly one applies each migration and the others see the result. Never edit a shipped
/// migration: append a new one.
///
/// Times are unix milliseconds (`bigint`), as in the SQLite store, so both stores share the
/// conversions and the semantics of every comparison.
enum PostgresMigrations {
    static let all: [String] = [version1, version2, version3, version4, version5, version6, version7, version8]

    static var latestVersion: Int { all.count }

    /// The advisory lock key of schema changes (any fixed 64-bit value; "pushnode" in ASCII).
    static let lockKey: Int64 = 0x7075_7368_6E6F_6465

    /// Applies the missing migrations. Throws when the database is newer than this build.
    static func apply(on connection: PGConnection) throws {
        try connection.execute("BEGIN")
        do {
            try connection.execute("SELECT pg_advisory_xact_lock(\(lockKey))")
            try connection.execute("CREATE TABLE IF NOT EXISTS pushnode_schema (version integer NOT NULL)")
            let found = try connection.execute("SELECT version FROM pushnode_schema")
            let current: Int
            if found.rowCount == 0 {
                try connection.execute("INSERT INTO pushnode_schema (version) VALUES (0)")
                current = 0
            } else {
                current = found.row(0).int(0)
            }
            guard current <= latestVersion else {
                throw StoreError.incompatibleSchema(found: current, supported: latestVersion)
            }
            for version in current..<latestVersion {
                try connection.execute(all[version])
                try connection.execute("UPDATE pushnode_schema SET version = \(version + 1)")
            }
            try connection.execute("COMMIT")
        } catch {
            if connection.isHealthy { _ = try? connection.execute("ROLLBACK") }
            throw error
        }
    }

    static let version1 = """
        CREATE TABLE registrations (
            id          text PRIMARY KEY,
            account     text NOT NULL,
            device_id   text NOT NULL,
            platform    text NOT NULL,
            token       text NOT NULL,
            p256dh      bytea,
            auth        bytea,
            app_id      text NOT NULL,
            environment text NOT NULL,
            created_at  bigint NOT NULL,
            updated_at  bigint NOT NULL
        );
        CREATE INDEX registrations_by_account ON registrations (account, device_id);

        CREATE TABLE spaces (
            account    text NOT NULL,
            space_key  text NOT NULL,
            created_at bigint NOT NULL,
            PRIMARY KEY (account, space_key)
        );

        CREATE TABLE subscriptions (
            account   text NOT NULL,
            space_key text NOT NULL,
            topic     text NOT NULL,
            PRIMARY KEY (account, space_key, topic)
        );
        CREATE INDEX subscriptions_by_topic ON subscriptions (space_key, topic, account);

        CREATE TABLE idempotency (
            caller          text NOT NULL,
            key             bytea NOT NULL,
            notification_id text NOT NULL,
            created_at      bigint NOT NULL,
            PRIMARY KEY (caller, key)
        );
        CREATE INDEX idempotency_by_age ON idempotency (created_at);

        -- Stored once per Notify; `pending` counts its outbox rows, and it is deleted with the last one.
        CREATE TABLE notifications (
            seq        bigserial PRIMARY KEY,
            id         text NOT NULL,
            kind       text NOT NULL,
            key_id     text,
            payload    bytea,
            signature  bytea,
            group_id   text,
            created_at bigint NOT NULL,
            expires_at bigint NOT NULL,
            pending    integer NOT NULL
        );

        -- One row per delivery. state 0 = queued, 1 = claimed by node `claimed_by`; while claimed,
        -- next_attempt_at is the lease end (claimed_until), after which any node may claim it again.
        CREATE TABLE outbox (
            id              bigserial PRIMARY KEY,
            notification    bigint NOT NULL,
            registration    text NOT NULL,
            provider        text NOT NULL,
            attempts        integer NOT NULL DEFAULT 0,
            state           smallint NOT NULL DEFAULT 0,
            claimed_by      text,
            next_attempt_at bigint NOT NULL,
            created_at      bigint NOT NULL,
            expires_at      bigint NOT NULL
        );
        CREATE INDEX outbox_due ON outbox (provider, next_attempt_at);
        CREATE INDEX outbox_claims ON outbox (claimed_by) WHERE state = 1;

        -- The (keyid, nonce) replay window shared by every node: a 16-byte digest of the pair.
        CREATE TABLE replay_nonces (
            digest     bytea PRIMARY KEY,
            expires_at double precision NOT NULL
        );
        CREATE INDEX replay_nonces_by_expiry ON replay_nonces (expires_at);

        -- Keys a single node would generate into dataDir (the VAPID key): the first node inserts, all read.
        CREATE TABLE node_keys (
            name       text PRIMARY KEY,
            value      text NOT NULL,
            created_at bigint NOT NULL
        );
        """

    /// `replaces` (PROTOCOL §4.1): a notification remembers its caller, and the caller's pending
    /// notifications of a group and their outbox rows are found by index.
    static let version2 = """
        ALTER TABLE notifications ADD COLUMN caller text;
        CREATE INDEX notifications_by_group ON notifications (caller, group_id) WHERE group_id IS NOT NULL;
        CREATE INDEX outbox_by_notification ON outbox (notification);
        """

    /// Outcomes (PROTOCOL §4.4): every accepted notification is logged with its caller for the
    /// outcome retention, finished deliveries are counted per provider and outcome, and a
    /// registration remembers its last outcome and delivery.
    static let version3 = """
        ALTER TABLE registrations ADD COLUMN last_delivery_at bigint;
        ALTER TABLE registrations ADD COLUMN last_outcome text;
        CREATE TABLE notification_log (
            id         text PRIMARY KEY,
            caller     text NOT NULL,
            created_at bigint NOT NULL
        );
        CREATE INDEX notification_log_by_age ON notification_log (created_at);
        CREATE TABLE delivery_outcomes (
            notification_id text NOT NULL,
            provider        text NOT NULL,
            outcome         text NOT NULL,
            count           integer NOT NULL,
            PRIMARY KEY (notification_id, provider, outcome)
        );
        CREATE INDEX notifications_by_id ON notifications (id);
        """

    /// The row `PostgresStore.probeWrite` updates while writes fail (PROTOCOL §3.3 `/readyz`).
    static let version4 = """
        CREATE TABLE write_probe (
            id     integer PRIMARY KEY CHECK (id = 1),
            writes bigint NOT NULL
        );
        """

    /// A notification's unclaimed recipients (`RecipientChunks`): up to 256 registration ids of one
    /// provider per row, expanded into outbox rows by the node that claims them (`FOR UPDATE SKIP
    /// LOCKED`, so two nodes never expand the same chunk). Rows already in `outbox` are claimed as before.
    static let version5 = """
        CREATE TABLE recipient_chunks (
            id            bigserial PRIMARY KEY,
            notification  bigint NOT NULL,
            provider      text NOT NULL,
            registrations text NOT NULL,
            remaining     integer NOT NULL,
            created_at    bigint NOT NULL,
            expires_at    bigint NOT NULL
        );
        CREATE INDEX recipient_chunks_by_provider ON recipient_chunks (provider, id);
        CREATE INDEX recipient_chunks_by_notification ON recipient_chunks (notification);
        """

    /// Provider credentials every node shares (`SharedCredentialStore`, PROTOCOL §10): one APNs
    /// provider token per (teamId, keyId), renewed by one node at a time (compare-and-set on `value`).
    static let version6 = """
        CREATE TABLE shared_credentials (
            name          text PRIMARY KEY,
            value         text NOT NULL,
            issued_at     bigint NOT NULL,
            after_refusal boolean NOT NULL
        );
        """

    /// Fewer B-trees written per Notify (issue 25), as `SQLiteMigrations.version7`: a chunk is keyed
    /// by (provider, notification, part), one index where the id's and two more were written; the
    /// status log remembers its notification's `seq` (NULL when nothing was queued), so
    /// `notifications_by_id` goes. Chunks written before keep their id as their `part`.
    static let version7 = """
        ALTER TABLE notification_log ADD COLUMN seq bigint;
        UPDATE notification_log l SET seq = n.seq FROM notifications n WHERE n.id = l.id;
        DROP INDEX notifications_by_id;
        DROP INDEX recipient_chunks_by_provider;
        DROP INDEX recipient_chunks_by_notification;
        ALTER TABLE recipient_chunks DROP CONSTRAINT recipient_chunks_pkey;
        ALTER TABLE recipient_chunks RENAME COLUMN id TO part;
        ALTER TABLE recipient_chunks ALTER COLUMN part DROP DEFAULT;
        DROP SEQUENCE recipient_chunks_id_seq;
        ALTER TABLE recipient_chunks ADD PRIMARY KEY (provider, notification, part);
        """

    /// A Notify's recipients are found per topic through `subscriptions_by_topic` whatever the
    /// store holds (issue 25): the planner's estimate of a topic's subscribers is declared, not
    /// sampled. `ANALYZE` sees few distinct topics in a store dominated by one large topic (one
    /// topic of a million subscribers samples as the only one), so a Notify to a topic of ten took
    /// the join for a large fraction of the table and got parallel scans of all of it, 100 ms and
    /// more. With `n_distinct = -0.1` (a topic name per ten subscriptions), a topic reads as about
    /// ten subscribers: index lookups per topic, then per account. A Notify to a very large topic
    /// is planned the same way, which costs it a few times the best plan, as SQLite's.
    static let version8 = """
        ALTER TABLE subscriptions ALTER COLUMN topic SET (n_distinct = -0.1);
        ANALYZE subscriptions;
        """
}
