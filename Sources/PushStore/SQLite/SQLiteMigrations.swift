/// The SQLite schema as an ordered list of migrations. `PRAGMA user_version` records how many have
/// been applied; opening a store applies the rest in one transaction, so a crash mid-migration
/// leaves the previous version intact. Never edit a shipped migration: append a new one.
///
/// Times are unix milliseconds. Accounts are account-id strings, space keys base58 strings.
enum SQLiteMigrations {
    static let all: [String] = [version1, version2, version3, version4, version5, version6, version7]

    static var latestVersion: Int { all.count }

    /// Applies the missing migrations. Throws when the file is newer than this build.
    static func apply(on connection: SQLiteConnection) throws {
        try connection.execute("BEGIN IMMEDIATE")
        do {
            let current = try connection.queryFirst("PRAGMA user_version") { $0.int(0) } ?? 0
            guard current <= latestVersion else {
                throw StoreError.incompatibleSchema(found: current, supported: latestVersion)
            }
            for version in current..<latestVersion {
                try connection.execute(all[version])
                try connection.execute("PRAGMA user_version = \(version + 1)")
            }
            try connection.execute("COMMIT")
        } catch {
            try? connection.execute("ROLLBACK")
            throw error
        }
    }

    static let version1 = """
        CREATE TABLE registrations (
            id          TEXT PRIMARY KEY,      -- registrationId (32 lowercase hex)
            account     TEXT NOT NULL,
            deviceId    TEXT NOT NULL,
            platform    TEXT NOT NULL,
            token       TEXT NOT NULL,
            p256dh      BLOB,
            auth        BLOB,
            appId       TEXT NOT NULL,
            environment TEXT NOT NULL,
            createdAt   INTEGER NOT NULL,
            updatedAt   INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX registrations_by_account ON registrations(account, deviceId);

        CREATE TABLE spaces (
            account   TEXT NOT NULL,
            spaceKey  TEXT NOT NULL,
            createdAt INTEGER NOT NULL,
            PRIMARY KEY (account, spaceKey)
        ) WITHOUT ROWID;

        CREATE TABLE subscriptions (
            account  TEXT NOT NULL,
            spaceKey TEXT NOT NULL,
            topic    TEXT NOT NULL,
            PRIMARY KEY (account, spaceKey, topic)
        ) WITHOUT ROWID;
        CREATE INDEX subscriptions_by_topic ON subscriptions(spaceKey, topic, account);

        CREATE TABLE idempotency (
            caller         TEXT NOT NULL,
            key            BLOB NOT NULL,      -- message signature, or SHA-256 of canonical topics
            notificationId TEXT NOT NULL,
            createdAt      INTEGER NOT NULL,
            PRIMARY KEY (caller, key)
        ) WITHOUT ROWID;
        CREATE INDEX idempotency_by_age ON idempotency(createdAt);

        -- A notification is stored once; `pending` counts its outbox rows, and it is deleted with the last one.
        CREATE TABLE notifications (
            seq       INTEGER PRIMARY KEY,
            id        TEXT NOT NULL,           -- the package id (x-any-id)
            kind      TEXT NOT NULL,
            keyId     TEXT,
            payload   BLOB,
            signature BLOB,
            groupId   TEXT,
            createdAt INTEGER NOT NULL,
            expiresAt INTEGER NOT NULL,
            pending   INTEGER NOT NULL
        );

        -- One row per delivery. state 0 = queued, 1 = claimed; while claimed, nextAttemptAt is the lease end.
        CREATE TABLE outbox (
            id            INTEGER PRIMARY KEY,
            notification  INTEGER NOT NULL,    -- notifications.seq
            registration  TEXT NOT NULL,       -- registrations.id (may be gone: pruned or revoked)
            provider      TEXT NOT NULL,
            attempts      INTEGER NOT NULL DEFAULT 0,
            state         INTEGER NOT NULL DEFAULT 0,
            nextAttemptAt INTEGER NOT NULL,
            createdAt     INTEGER NOT NULL,
            expiresAt     INTEGER NOT NULL
        );
        CREATE INDEX outbox_due ON outbox(provider, nextAttemptAt);
        """

    /// `replaces` (PROTOCOL §4.1): a notification remembers its caller, and the caller's pending
    /// notifications of a group and their outbox rows are found by index.
    static let version2 = """
        ALTER TABLE notifications ADD COLUMN caller TEXT;
        CREATE INDEX notifications_by_group ON notifications(caller, groupId) WHERE groupId IS NOT NULL;
        CREATE INDEX outbox_by_notification ON outbox(notification);
        """

    /// Outcomes (PROTOCOL §4.4): every accepted notification is logged with its caller for the
    /// outcome retention, finished deliveries are counted per provider and outcome, and a
    /// registration remembers its last outcome and delivery.
    static let version3 = """
        ALTER TABLE registrations ADD COLUMN lastDeliveryAt INTEGER;
        ALTER TABLE registrations ADD COLUMN lastOutcome TEXT;
        CREATE TABLE notification_log (
            id        TEXT PRIMARY KEY,
            caller    TEXT NOT NULL,
            createdAt INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX notification_log_by_age ON notification_log(createdAt);
        CREATE TABLE delivery_outcomes (
            notificationId TEXT NOT NULL,
            provider       TEXT NOT NULL,
            outcome        TEXT NOT NULL,
            count          INTEGER NOT NULL,
            PRIMARY KEY (notificationId, provider, outcome)
        ) WITHOUT ROWID;
        CREATE INDEX notifications_by_id ON notifications(id);
        """

    /// The row `SQLiteStore.probeWrite` rewrites while writes fail (PROTOCOL §3.3 `/readyz`).
    static let version4 = """
        CREATE TABLE write_probe (
            id      INTEGER PRIMARY KEY CHECK (id = 1),
            writes  INTEGER NOT NULL,
            padding BLOB NOT NULL
        );
        """

    /// A notification's unclaimed recipients (`RecipientChunks`): up to 256 registration ids of one
    /// provider per row, expanded into outbox rows as they are claimed. Rows already in `outbox`
    /// from an older build are claimed as before. The registrations' account index now covers the
    /// fan-out query (account, platform, device, id: no table lookup per recipient) and still
    /// serves the lookups by account and by (account, device).
    static let version5 = """
        DROP INDEX registrations_by_account;
        CREATE INDEX registrations_by_account_platform ON registrations(account, platform, deviceId, id);
        CREATE TABLE recipient_chunks (
            id            INTEGER PRIMARY KEY,
            notification  INTEGER NOT NULL,    -- notifications.seq
            provider      TEXT NOT NULL,
            registrations TEXT NOT NULL,       -- registration ids, comma-separated, none expanded yet
            remaining     INTEGER NOT NULL,    -- how many ids `registrations` holds
            createdAt     INTEGER NOT NULL,
            expiresAt     INTEGER NOT NULL
        );
        CREATE INDEX recipient_chunks_by_provider ON recipient_chunks(provider);
        CREATE INDEX recipient_chunks_by_notification ON recipient_chunks(notification);
        """

    /// One column naming with PostgreSQL: snake_case. SQLite rewrites the indexes (and the partial
    /// index's condition) with the columns; rows stay as they are.
    static let version6 = """
        ALTER TABLE registrations RENAME COLUMN deviceId TO device_id;
        ALTER TABLE registrations RENAME COLUMN appId TO app_id;
        ALTER TABLE registrations RENAME COLUMN createdAt TO created_at;
        ALTER TABLE registrations RENAME COLUMN updatedAt TO updated_at;
        ALTER TABLE registrations RENAME COLUMN lastDeliveryAt TO last_delivery_at;
        ALTER TABLE registrations RENAME COLUMN lastOutcome TO last_outcome;
        ALTER TABLE spaces RENAME COLUMN spaceKey TO space_key;
        ALTER TABLE spaces RENAME COLUMN createdAt TO created_at;
        ALTER TABLE subscriptions RENAME COLUMN spaceKey TO space_key;
        ALTER TABLE idempotency RENAME COLUMN notificationId TO notification_id;
        ALTER TABLE idempotency RENAME COLUMN createdAt TO created_at;
        ALTER TABLE notifications RENAME COLUMN keyId TO key_id;
        ALTER TABLE notifications RENAME COLUMN groupId TO group_id;
        ALTER TABLE notifications RENAME COLUMN createdAt TO created_at;
        ALTER TABLE notifications RENAME COLUMN expiresAt TO expires_at;
        ALTER TABLE outbox RENAME COLUMN nextAttemptAt TO next_attempt_at;
        ALTER TABLE outbox RENAME COLUMN createdAt TO created_at;
        ALTER TABLE outbox RENAME COLUMN expiresAt TO expires_at;
        ALTER TABLE notification_log RENAME COLUMN createdAt TO created_at;
        ALTER TABLE delivery_outcomes RENAME COLUMN notificationId TO notification_id;
        ALTER TABLE recipient_chunks RENAME COLUMN createdAt TO created_at;
        ALTER TABLE recipient_chunks RENAME COLUMN expiresAt TO expires_at;
        """

    /// Fewer B-trees written per Notify (issue 25). A chunk is keyed by (provider, notification,
    /// part), so one B-tree serves a claim (a provider's chunks, oldest notification first) and the
    /// lookups by notification (searched once per provider), where a rowid table and two indexes
    /// were written. The status log remembers its notification's `seq` (NULL when nothing was
    /// queued), so nothing looks a notification up by its id any more and `notifications_by_id`
    /// goes. Chunks written before keep their rowid as their `part` (their order stays).
    static let version7 = """
        ALTER TABLE notification_log ADD COLUMN seq INTEGER;   -- notifications.seq, while it is stored
        UPDATE notification_log SET seq = (SELECT n.seq FROM notifications n WHERE n.id = notification_log.id);
        DROP INDEX notifications_by_id;
        CREATE TABLE recipient_chunks_v7 (
            provider      TEXT NOT NULL,
            notification  INTEGER NOT NULL,    -- notifications.seq
            part          INTEGER NOT NULL,    -- its place among the notification's chunks of the provider
            registrations TEXT NOT NULL,       -- registration ids, comma-separated, none expanded yet
            remaining     INTEGER NOT NULL,    -- how many ids `registrations` holds
            created_at    INTEGER NOT NULL,
            expires_at    INTEGER NOT NULL,
            PRIMARY KEY (provider, notification, part)
        ) WITHOUT ROWID;
        INSERT INTO recipient_chunks_v7 (provider, notification, part, registrations, remaining, created_at, expires_at)
            SELECT provider, notification, id, registrations, remaining, created_at, expires_at FROM recipient_chunks;
        DROP TABLE recipient_chunks;
        ALTER TABLE recipient_chunks_v7 RENAME TO recipient_chunks;
        """
}
