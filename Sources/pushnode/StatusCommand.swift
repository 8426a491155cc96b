import Foundation
import HTTPClient
import PushConfig
import PushNet

/// `pushnode status [--admin URL] [--config FILE]`: prints the node's `/status.json` (PROTOCOL
/// §3.3) as it comes. Without `--admin`, the admin listener is `adminListen` of `--config`, else
/// `defaultAdminURL` (the default `adminListen`). A failure to reach it is
/// named with the URL and the cause, like the client commands' (`NodeFailureText`).
enum StatusCommand {
    static let defaultAdminURL = "http://\(NodeConfig.defaultAdminListen)"

    static func run(_ args: Arguments) throws {
        let base = try adminURL(args)
        let url = base.hasSuffix("/") ? base + "status.json" : base + "/status.json"
        let client: HTTPClient
        do { client = try HTTPClient(configuration: .init(connectTimeout: .seconds(5), requestTimeout: .seconds(15),
                                                           caFile: args.options["ca-file"])) } catch {
            throw NodeFailureText.cliError(error, nodeURL: base)
        }
        defer { client.shutdown() }
        let answer: ClientResponse
        do { answer = try blocking { try await client.send(ClientRequest(url: url)) } } catch {
            throw NodeFailureText.cliError(error, nodeURL: base)
        }
        guard answer.status == 200 else {
            let detail = String(decoding: answer.body.prefix(200), as: UTF8.self)
            throw CLIError("\(url) answered \(answer.status): \(detail)",
                           hint: answer.status == 404 ? "is --admin the node's adminListen? /status is served there" : nil)
        }
        FileHandle.standardOutput.write(Data(answer.body + (answer.body.last == UInt8(ascii: "\n") ? [] : [10])))
    }

    /// `--admin`, else `http://` + the config's `adminListen` (a wildcard host asked on loopback).
    static func adminURL(_ args: Arguments) throws -> String {
        if let admin = args.options["admin"] { return admin }
        guard args.options["config"] != nil else { return defaultAdminURL }
        guard let listen = try loadConfig(args).config.adminListen else {
            throw CLIError("the config sets no adminListen, where /status is served; set it, or pass --admin URL")
        }
        guard listen.port != 0 else {
            throw CLIError("adminListen picks a free port (0); pass the one the node logged (event=admin_listening) with --admin URL")
        }
        // A wildcard address listens on loopback too.
        let host = ["0.0.0.0": "127.0.0.1", "::": "::1"][listen.host] ?? listen.host
        return "http://\(ListenAddress(host: host, port: listen.port))"
    }
}
