import Dispatch
import Foundation
import PushClient
import PushCrypto
import PushProtocol

/// What every `pushnode client` command that talks to a node shares: `--node URL` (default the
/// node's own default address), `--ca-file PEM`, and `--account FILE` (a 0600 hex seed file).
struct ClientContext {
    let account: AccountKey
    let transport: HTTPNodeTransport
    /// The node's base URL, named in a network failure (`NodeFailureText`).
    let nodeURL: String

    init(_ args: Arguments) throws {
        account = try clientCall { try AccountKeyFile.load(args.required("account")) }
        nodeURL = args.options["node"] ?? HTTPNodeTransport.defaultBaseURL
        let configuration = HTTPNodeTransport.Configuration(baseURL: nodeURL, caFile: args.options["ca-file"])
        let account = account
        transport = try clientCall { try HTTPNodeTransport(configuration: configuration, account: account) }
    }

    var accountID: String { account.accountID.string }

    /// `blocking`, with a failure to reach the node named by its URL and cause, and a refusal
    /// with its hint (`platform`: the one the command is about, for `platform.disabled`).
    func call<T: Sendable>(platform: Platform? = nil, _ body: @escaping @Sendable () async throws -> T) throws -> T {
        do { return try blocking(body) } catch { throw failure(error, platform: platform) }
    }

    /// A client error as the CLI reports it (see `NodeFailureText`).
    func failure(_ error: any Error, platform: Platform? = nil) -> any Error {
        NodeFailureText.cliError(error, nodeURL: nodeURL, platform: platform)
    }

    /// A subscriber for this account (revokes are not retried in the background: a CLI exits).
    var subscriber: PushSubscriber {
        PushSubscriber(transport: transport, accountID: accountID, retry: RetryPolicy.fixed(attempts: 1))
    }

    /// The space's two keys from `--space FILE` (`client space new`) or from any's ACL material,
    /// `--space-metadata-key HEX --read-key HEX`; the command's `OptionChoice` lets only one through.
    static func spaceKeys(_ args: Arguments) throws -> PushSpaceKeys {
        if let path = args.options["space"] { return try clientCall { try SpaceKeyFile.load(path) } }
        return PushSpaceKeys(pushKey: try spacePushKey(args), payloadKey: try payloadKey(args))
    }

    /// The space push key from `--space FILE` or `--space-metadata-key HEX` (32-byte seed or
    /// 64-byte Go form).
    static func spacePushKey(_ args: Arguments) throws -> SpacePushKey {
        if let path = args.options["space"] { return try clientCall { try SpaceKeyFile.load(path) }.pushKey }
        let raw = try hexOption(args, "space-metadata-key")
        do {
            return try SpaceKeys.pushKey(firstMetadataKey: raw)
        } catch {
            throw CLIError("--space-metadata-key must be 32 bytes (seed) or 64 bytes (seed ‖ public key) of hex")
        }
    }

    /// The payload key from `--read-key HEX` (32 bytes).
    static func payloadKey(_ args: Arguments) throws -> PayloadKey {
        guard let key = try? SpaceKeys.payloadKey(readKey: hexOption(args, "read-key")) else {
            throw CLIError("--read-key must be 32 bytes of hex")
        }
        return key
    }

    static func hexOption(_ args: Arguments, _ name: String) throws -> [UInt8] {
        guard let bytes = try? Hex.decode(args.required(name)) else { throw CLIError("--\(name) is not hex") }
        return bytes
    }
}

/// Runs a throwing library call, turning `PushClientError` into the CLI's error (exit 2).
func clientCall<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as PushClientError {
        throw CLIError(error.description)
    }
}

/// Runs async work to completion from the synchronous CLI (errors as thrown: `ClientContext.call`
/// turns them into the CLI's).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let box = BlockingResult<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await body()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try box.result!.get()
}

/// The result slot of `blocking`: written once by the task, read after the semaphore.
private final class BlockingResult<T>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
