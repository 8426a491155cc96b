import Foundation
import PushSupport

/// `pushnode <command> …`: `CommandTable` declares every command and its options, `CommandLineParser`
/// picks one, and each command lives in its own file. `usage` is the global help (`pushnode help`).
let usage = """
usage: pushnode <command> [options]

  serve [--config FILE]            run the node (no config: embedded default on 127.0.0.1:8765)
  check [--config FILE] [--live]   validate config and credentials, print live platforms;
                                   --live: FCM mints a token, APNs answers a dummy push, PostgreSQL connects
  send --platform P --token T [--p256dh K --auth A] [--environment E] [--kind K] [--ttl S] [--config FILE]
                                   one test push through the configured gateways; prints the answer
  backup --to FILE [--config FILE] copy the live SQLite database (online backup API) to FILE
  status [--admin URL] [--config FILE]
                                   the node's /status.json: queues, provider health, tries per minute
  keys account [--out FILE]        new account key: {"accountId", "seed"}
  keys vapid [--out FILE]          new VAPID key: {"publicKey"}, PEM written to FILE
  keys peer [--config FILE]        the any-sync door's peer id: {"peerId"}
  keys derive --metadata-key HEX --read-key HEX
                                   space push key and payload key from ACL material
  payload seal --key BASE64        plaintext on stdin -> sealed base64 on stdout
  payload open --key BASE64        sealed base64 on stdin -> plaintext on stdout
  keys sign (--seed HEX|--seed-file FILE)          sign stdin with an account key
  keys verify (--public-key HEX|--account-id ID|--space-key B58) --signature B64
  webpush encrypt --p256dh B64URL --auth B64URL    RFC 8291 record of stdin (base64url out)
  webpush decrypt --private-key B64URL --auth B64URL
  jwt vapid|apns|google|rs256 …    tokens for support work (each prints its usage)
  client sign-request --seed HEX --method M --path P [--query Q] [--body-file F]
                                   PROTOCOL §2 signature headers as JSON
  client verify-request --method M --path P [--query Q] [--body-file F]
         --signature-input S --signature S [--content-digest D]
                                   check a request signature (no clock/replay check)
  client account new [--out FILE]  new account key (FILE: hex seed, 0600, never replaced)
  client token set|revoke|list     --account FILE [--node URL] [--ca-file PEM]
         set: --device ID --platform P --token T [--p256dh K --auth A] [--environment E] [--app-id A]
         revoke: --device ID | --token T --platform P
  client space new --out FILE      a random space (push key + payload key, 0600): {"spaceKey", "keyId", "path"}
  client space derive --space-metadata-key HEX --read-key HEX --out FILE   the same file for an any space
         (every client command naming a space takes --space FILE or any's --space-metadata-key [--read-key])
  client subscribe --account FILE (--space FILE | --space-metadata-key HEX) (--topic T … | --mode all|mentions|none [--chat ID[=MODE]]…)
  client subscriptions --account FILE
  client notify --account FILE (--space FILE | --space-metadata-key HEX --read-key HEX)
         --chat ID --text T [--mention ID]… [--kind message|silent|call]      any's chat payload
         | (--payload-file F | --payload-json JSON | --wake) --topic T… [--group-id G]
           [--kind message|silent|call|clear] [--ttl S] [--replaces] [--own-devices [--device ID]]
  client open (--key BASE64 | --space FILE) [--sender ID] --data JSON|-   x-any-* data keys -> verified payload
  client reconcile --state FILE --account FILE [--once] [--poll-ms N] [--tick-seconds N]
                                   (client commands: --node defaults to http://127.0.0.1:8765)
  version, --version               print the version
  help <command>, <command> --help the options of one command
"""

do {
    switch try CommandLineParser.parse(Array(CommandLine.arguments.dropFirst()), root: CommandTable.root) {
    case .help(let spec): print(HelpText.render(spec))
    case .run(let spec, let arguments): try spec.run?(arguments)
    }
} catch let error as CLIError {
    Output.fail(error.description, hint: error.hint)
} catch {
    Output.fail("\(error)")
}
