import PushSupport

/// Every command of `pushnode`, its options and the function that runs it: the one declaration
/// the parser, the per-command help and the "did you mean" suggestions all read.
enum CommandTable {
    static let config = OptionSpec.value("config", "FILE", "config.yaml (default: the embedded default; PUSHNODE_* variables override)")

    /// `--account`, `--node`, `--ca-file`: every client command that talks to a node (`ClientContext`).
    static let node: [OptionSpec] = [
        .value("account", "FILE", "the account's hex seed file (0600)", required: true),
        .value("node", "URL", "the node's base URL (default http://127.0.0.1:8765)"),
        .value("ca-file", "PEM", "extra CA certificates for the node's TLS"),
    ]

    /// `--platform`, `--token`, `--p256dh`, `--auth`, `--environment`: a device's registration, as
    /// `send` and `client token set` take it.
    static let registration: [OptionSpec] = [
        .value("platform", "P", "android, ios, apns, apns_voip, webpush, huawei or harmony", required: true),
        .value("token", "T", "the device token (Web Push: the endpoint URL)", required: true),
        .value("p256dh", "B64URL", "Web Push subscriber public key"),
        .value("auth", "B64URL", "Web Push auth secret"),
        .value("environment", "E", "APNs: production (default) or development"),
    ]

    /// `--method`, `--path`, `--query`, `--body-file`: the request `client sign-request` and
    /// `client verify-request` sign or check.
    static let request: [OptionSpec] = [
        .value("method", "M", "the HTTP method", required: true),
        .value("path", "P", "the request path", required: true),
        .value("query", "Q", "the raw query string"),
        .value("body-file", "F", "the request body"),
    ]

    /// `--space FILE`, or any's ACL material: how a client command names a space.
    static let spaceFile = OptionSpec.value("space", "FILE", "the space file (client space new): push key and payload key")
    static let metadataKey = OptionSpec.value("space-metadata-key", "HEX", "any: the space's first metadata key")
    static let readKey = OptionSpec.value("read-key", "HEX", "any: the space's read key")
    /// Both keys: `--space FILE` or `--space-metadata-key HEX --read-key HEX`.
    static let spaceKeys = OptionChoice([["space"], ["space-metadata-key", "read-key"]])

    /// What `client notify` sends: any's chat payload, your own bytes, or nothing (a wake).
    static let notifyPayload: OptionChoice = {
        let own = ["topic", "group-id", "replaces", "own-devices"]
        return OptionChoice([["chat"], ["payload-file"], ["payload-json"], ["wake"]], with: [
            ["text", "mention", "msg-id", "sender-name", "chat-name", "space-name", "space-id"], own, own, own,
        ])
    }()

    static let root = CommandSpec(group: [], "pushnode", [
        CommandSpec(["serve"], "run the node until SIGTERM/SIGINT (no config: embedded default on 127.0.0.1:8765)",
                    options: [config], run: runServe),
        CommandSpec(["check"], "validate config and credentials, print live platforms", options: [
            config,
            .flag("live", "also ask FCM, APNs and PostgreSQL whether they accept the credentials (exit 1 if not)"),
        ], run: runCheck),
        CommandSpec(["send"], "one test push through the configured gateways; prints the answer", options: registration + [
            .value("kind", "K", "message (default), silent or call"),
            .value("ttl", "SECONDS", "time to live, 1-2419200 (default 60)"),
            config,
        ], run: runSend),
        CommandSpec(["backup"], "copy the live SQLite database to FILE (online backup; the node keeps running)", options: [
            .value("to", "FILE", "the new backup file (never replaced)", required: true),
            config,
        ], run: runBackup),
        CommandSpec(["status"], "print the node's /status.json (queues, provider health, deliveries per minute)", options: [
            .value("admin", "URL", "the admin listener's base URL (default: adminListen of --config, else \(StatusCommand.defaultAdminURL))"),
            .value("ca-file", "PEM", "extra CA certificates for the admin listener's TLS (behind a proxy)"),
            config,
        ], run: StatusCommand.run),
        keys, payload, webpush, jwt, client,
        CommandSpec(["version"], "print the version", run: { _ in print("pushnode \(NodeVersion.current)") }),
        // Declared so `help help` and the suggestions know it; `CommandLineParser` takes the word
        // `help` itself, so `run` is reached only by a bare `pushnode help`-like path.
        CommandSpec(["help"], "the options of one command (no command: the list of commands)",
                    operands: "[<command> …]", run: { _ in print(usage) }),
    ])

    static let keys = CommandSpec(group: ["keys"], "account keys, VAPID keys, the peer id, space key derivation, Ed25519 sign/verify", [
        CommandSpec(["keys", "account"], "new account key: {\"accountId\", \"seed\"}",
                    options: [.value("out", "FILE", "write the hex seed there (0600, never replaced); print only the id")],
                    run: KeysCommand.account),
        CommandSpec(["keys", "vapid"], "new VAPID key: {\"publicKey\"}, PEM written to FILE",
                    options: [.value("out", "FILE", "write the PKCS#8 PEM there (0600, never replaced)")], run: keysVapid),
        CommandSpec(["keys", "peer"], "the any-sync door's peer id: {\"peerId\"}", options: [config], run: KeysCommand.peer),
        CommandSpec(["keys", "derive"], "space push key and payload key from ACL material", options: [
            .value("metadata-key", "HEX", "the space's first metadata key (32 or 64 bytes)", required: true),
            .value("read-key", "HEX", "the space's read key (32 bytes)", required: true),
        ], run: KeysCommand.derive),
        CommandSpec(["keys", "sign"], "sign stdin with an account key", options: [
            .value("seed", "HEX", "the Ed25519 seed"),
            .value("seed-file", "FILE", "a file holding the hex seed"),
        ], run: KeysCommand.sign),
        CommandSpec(["keys", "verify"], "verify an Ed25519 signature over stdin", options: [
            .value("public-key", "HEX", "the signer's public key"),
            .value("account-id", "ID", "the signer's account id"),
            .value("space-key", "B58", "the signer's space key"),
            .value("signature", "B64", "the signature", required: true),
        ], run: KeysCommand.verify),
    ])

    static let payload = CommandSpec(group: ["payload"], "the any-compatible payload sealing (AES-256-GCM)", [
        CommandSpec(["payload", "seal"], "plaintext on stdin -> sealed base64 on stdout",
                    options: [.value("key", "BASE64", "the 32-byte payload key", required: true)], run: PayloadCommand.seal),
        CommandSpec(["payload", "open"], "sealed base64 on stdin -> plaintext on stdout",
                    options: [.value("key", "BASE64", "the 32-byte payload key", required: true)], run: PayloadCommand.open),
    ])

    static let webpush = CommandSpec(group: ["webpush"], "RFC 8291 message encryption", [
        CommandSpec(["webpush", "encrypt"], "plaintext on stdin -> RFC 8291 record (base64url)", options: [
            .value("p256dh", "B64URL", "the subscriber's public key", required: true),
            .value("auth", "B64URL", "the subscriber's auth secret", required: true),
        ], run: webpushEncrypt),
        CommandSpec(["webpush", "decrypt"], "base64url record on stdin -> plaintext", options: [
            .value("private-key", "B64URL", "the subscriber's private key", required: true),
            .value("auth", "B64URL", "the subscriber's auth secret", required: true),
        ], run: webpushDecrypt),
    ])

    static let jwt = CommandSpec(group: ["jwt"], "provider tokens for support work", [
        CommandSpec(["jwt", "vapid"], "a VAPID JWT: {\"token\", \"header\"}", options: [
            .value("key", "PEMFILE", "the VAPID private key", required: true),
            .value("aud", "ORIGIN", "the push service origin (or an endpoint URL)", required: true),
            .value("sub", "mailto:…", "the contact claim"),
            .value("expires-in", "SECONDS", "lifetime (default 12 hours)"),
        ], run: jwtVapid),
        CommandSpec(["jwt", "apns"], "an APNs provider token: {\"token\"}", options: [
            .value("key", "P8FILE", "the .p8 signing key", required: true),
            .value("key-id", "KID", "the key id", required: true),
            .value("team-id", "TEAM", "the team id", required: true),
            .value("iat", "SECONDS", "issued-at (default now)"),
        ], run: jwtAPNs),
        CommandSpec(["jwt", "google"], "a Google service-account assertion: {\"token\"}", options: [
            .value("service-account", "JSONFILE", "the service-account JSON", required: true),
            .value("iat", "SECONDS", "issued-at (default now)"),
        ], run: jwtGoogle),
        CommandSpec(["jwt", "rs256"], "an RS256 JWT over the given claims: {\"token\"}", options: [
            .value("key", "PEMFILE", "the RSA private key", required: true),
            .value("claims", "JSON", "the claims object, signed byte for byte", required: true),
        ], run: jwtRS256),
    ])

    static let client = CommandSpec(group: ["client"], "the client library's operations against a node", [
        CommandSpec(["client", "sign-request"], "PROTOCOL §2 signature headers as JSON",
                    options: [.value("seed", "HEX", "the account seed", required: true)] + request + [
            .value("created", "UNIX", "the signature's created time (default now)"),
            .value("nonce", "TEXT", "the signature's nonce (default random)"),
        ], run: runSignRequest),
        CommandSpec(["client", "verify-request"], "check a request signature (no clock/replay check)", options: request + [
            .value("signature-input", "S", "the Signature-Input header"),
            .value("signature", "S", "the Signature header"),
            .value("content-digest", "D", "the Content-Digest header"),
        ], run: runVerifyRequest),
        CommandSpec(group: ["client", "account"], "account key files", [
            CommandSpec(["client", "account", "new"], "new account key (FILE: hex seed, 0600, never replaced)",
                        options: [.value("out", "FILE", "write the hex seed there; print {\"accountId\", \"path\"}")],
                        run: ClientAccountCommand.new),
        ]),
        CommandSpec(group: ["client", "token"], "the account's device tokens on the node", [
            CommandSpec(["client", "token", "set"], "register or replace a device's token: {\"registrationId\"}",
                        options: node + [.value("device", "ID", "the device id", required: true)] + registration
                            + [.value("app-id", "A", "the app id")],
                        run: ClientTokenCommands.set),
            CommandSpec(["client", "token", "revoke"], "revoke by --device, or by --token and --platform", options: node + [
                .value("device", "ID", "the device id"),
                .value("token", "T", "the device token"),
                .value("platform", "P", "the token's platform"),
            ], run: ClientTokenCommands.revoke),
            CommandSpec(["client", "token", "list"], "the account's registrations (never tokens)", options: node,
                        run: ClientTokenCommands.list),
            CommandSpec(["client", "token", "test"], "one test push to a registration now: what the provider said", options: node + [
                .value("registration", "ID", "the registrationId (from set or list)", required: true),
            ], run: ClientTokenCommands.test),
        ]),
        CommandSpec(group: ["client", "space"], "space files: a space's push key and payload key", [
            CommandSpec(["client", "space", "new"], "a random space, no ACL material: {\"spaceKey\", \"keyId\", \"path\"}",
                        options: [.value("out", "FILE", "the new space file (0600, never replaced)", required: true)],
                        run: ClientSpaceCommand.new),
            CommandSpec(["client", "space", "derive"], "the space file of an any space, from its ACL material", options: [
                .value("space-metadata-key", "HEX", "the space's first metadata key", required: true),
                .value("read-key", "HEX", "the space's current read key", required: true),
                .value("out", "FILE", "the new space file (0600, never replaced)", required: true),
            ], run: ClientSpaceCommand.derive),
        ]),
        CommandSpec(["client", "subscribe"], "subscribe topics, or set a space's topics from notify modes", options: node + [
            spaceFile, metadataKey,
            .value("topic", "T", "a topic to add", repeatable: true),
            .value("mode", "MODE", "all, mentions or none: the space's topics become exactly these"),
            .value("chat", "ID[=MODE]", "a chat of the space, with an optional override", repeatable: true),
        ], choices: [OptionChoice([["space"], ["space-metadata-key"]])], run: ClientSubscribeCommands.subscribe),
        CommandSpec(["client", "subscriptions"], "the account's topics on the node", options: node,
                    run: ClientSubscribeCommands.list),
        CommandSpec(["client", "notify"], "send any's chat push, your own bytes, or a wake; prints each request", options: node + [
            spaceFile, metadataKey, readKey,
            .value("chat", "ID", "any: the chat id (the push is any's chat payload)"),
            .value("text", "T", "any: the message text (required for a message)"),
            .value("mention", "ID", "any: a mentioned (call: invited) account", repeatable: true),
            .value("msg-id", "ID", "any: the message id (default a new UUID)"),
            .value("sender-name", "NAME", "any: the sender's display name"),
            .value("chat-name", "NAME", "any: the chat's name"),
            .value("space-name", "NAME", "any: the space's name"),
            .value("space-id", "ID", "any: the space id (default the space key)"),
            .value("payload-file", "F", "seal these bytes as they are"),
            .value("payload-json", "JSON", "seal this JSON text as it is"),
            .flag("wake", "no payload: a content-free wake"),
            .value("topic", "T", "a topic of the space to notify", repeatable: true),
            .value("group-id", "G", "collapse and replace key (1-64 printable ASCII)"),
            .flag("replaces", "withdraw your undelivered pushes of --group-id to the same devices"),
            .flag("own-devices", "POST /v1/notify/silent: your own devices (topic: your account id)"),
            .value("kind", "K", "message (default), silent, call or clear (with --chat: message, silent or call)"),
            .value("device", "ID", "silent to your own devices: the device to skip"),
            .value("ttl", "SECONDS", "time to live (with --chat --kind call: the ring window, default 45)"),
        ], choices: [spaceKeys, notifyPayload], run: ClientNotifyCommand.run),
        CommandSpec(["client", "open"], "x-any-* data keys -> verified, decrypted payload", options: [
            .value("key", "BASE64", "the payload key"),
            spaceFile,
            .value("sender", "ID", "the sender's account id: open its own bytes (no any payload)"),
            .value("data", "JSON|-", "the data keys as a JSON object ('-': stdin)", required: true),
        ], choices: [OptionChoice([["key"], ["space"]])], run: ClientOpenCommand.run),
        CommandSpec(["client", "reconcile"], "the app's reconcile loop, following a state file", options: node + [
            .value("state", "FILE", "the JSON state file", required: true),
            .flag("once", "one pass, printed as JSON, then exit"),
            .value("poll-ms", "N", "how often the state file is checked (default 1000)"),
            .value("tick-seconds", "N", "the periodic pass (default 300)"),
        ], run: ClientReconcileCommand.run),
    ])
}
