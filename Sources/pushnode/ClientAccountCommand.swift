import Foundation
import PushClient
import PushCrypto

/// `pushnode client account new [--out FILE]`: a fresh account key. With `--out` the hex seed goes
/// to a new file (0600, never replacing one) and stdout gets `{"accountId", "path"}`; without it,
/// `{"accountId", "seed"}`.
enum ClientAccountCommand {
    static func new(_ args: Arguments) throws {
        if let path = args.options["out"] {
            let key = try clientCall { try AccountKeyFile.create(path) }
            Output.json(["accountId": key.accountID.string, "path": path])
        } else {
            let key = AccountKey.generate()
            Output.json(["accountId": key.accountID.string, "seed": Hex.encode(key.keyPair.seed)])
        }
    }
}
