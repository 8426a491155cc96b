import Foundation
import PushProtocol

/// The provider side of `PushBench e2e`: `nghttpd` (Debian nghttp2-server), a C HTTP/2 server
/// in its own process that reads every request body, behind a throwaway CA. One server stands
/// in for the OAuth token endpoint, FCM, APNs and the Web Push endpoints: it answers each POST
/// with the file at its path (200), so the document root holds one file per path the node sends
/// to. `h2load` (nghttp2-client) against the same server, in the same run, is the yardstick for
/// what one HTTP/2 client connection here can push through it.
final class HTTP2Sink {
    static let fcmProject = "bench"
    static let accessToken = "bench-access-token"

    let directory: String
    let port: Int
    let streams: Int
    private let process: Process

    var origin: String { "https://127.0.0.1:\(port)" }
    var caFile: String { directory + "/ca.pem" }
    var serviceAccountFile: String { directory + "/service-account.json" }
    var apnsKeyFile: String { directory + "/apns.p8" }

    /// - Parameters:
    ///   - apnsTokens: device tokens that get a `/3/device/<token>` file.
    ///   - webPushEndpoints: how many `/push/<n>` files (n from 0) there are.
    ///   - streams: the server's `SETTINGS_MAX_CONCURRENT_STREAMS` (nghttpd's default is 100).
    init(directory: String, apnsTokens: [String], webPushEndpoints: Int, streams: Int) throws {
        self.directory = directory
        self.streams = streams
        let port = try FreePort.pick()
        self.port = port
        try Self.makeCertificates(in: directory)
        try Self.makeCredentials(in: directory, tokenURI: "https://127.0.0.1:\(port)/token")
        let root = directory + "/www"
        try Self.write(#"{"access_token":"\#(Self.accessToken)","expires_in":3600,"token_type":"Bearer"}"#, to: root + "/token")
        try Self.write(#"{"name":"projects/\#(Self.fcmProject)/messages/0"}"#,
                       to: root + "/v1/projects/\(Self.fcmProject)/messages:send")
        for token in apnsTokens { try Self.write("", to: root + "/3/device/" + token) }
        for n in 0..<webPushEndpoints { try Self.write("", to: root + "/push/\(n)") }

        process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "nghttpd", package: "nghttp2-server"))
        process.arguments = ["-d", root, "-m", "\(streams)", "\(port)", directory + "/server.key", directory + "/server.pem"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try FreePort.waitUntilListening(port, timeout: 10)
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    var pid: Int32 { process.processIdentifier }

    /// One `h2load` run: `requests` POSTs of `bodyBytes` to a Web Push path over `connections`
    /// connections with up to `streams` streams each. Requests per second as h2load reports it.
    func h2load(requests: Int, connections: Int, bodyBytes: Int) throws -> Double {
        let body = directory + "/h2load-body"
        if !FileManager.default.fileExists(atPath: body) {
            FileManager.default.createFile(atPath: body, contents: Data(repeating: 0x61, count: bodyBytes))
        }
        let output = try Tools.run(try Tools.path(of: "h2load", package: "nghttp2-client"),
                                   ["-n", "\(requests)", "-c", "\(connections)", "-m", "\(streams)", "-d", body,
                                    origin + "/push/0"])
        // "finished in 1.02s, 19548.07 req/s, 58.85MB/s" and "requests: N total, … N succeeded, 0 failed"
        guard let finished = output.split(separator: "\n").first(where: { $0.hasPrefix("finished in") }),
              let field = finished.split(separator: ",").dropFirst().first,
              let rate = Double(field.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? ""),
              output.contains("\(requests) succeeded") else {
            throw BenchFailure("h2load: unexpected output:\n\(output)")
        }
        return rate
    }

    // MARK: Files

    private static func makeCertificates(in directory: String) throws {
        let openssl = try Tools.path(of: "openssl", package: "openssl")
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        _ = try Tools.run(openssl, ["req", "-x509"] + ec + ["-keyout", directory + "/ca.key", "-out", directory + "/ca.pem",
                                                           "-subj", "/CN=pushbench throwaway CA", "-days", "2"])
        _ = try Tools.run(openssl, ["req"] + ec + ["-keyout", directory + "/server.key", "-out", directory + "/server.csr",
                                                  "-subj", "/CN=127.0.0.1"])
        try write("subjectAltName=IP:127.0.0.1,DNS:localhost\n", to: directory + "/server.ext")
        _ = try Tools.run(openssl, ["x509", "-req", "-in", directory + "/server.csr", "-CA", directory + "/ca.pem",
                                    "-CAkey", directory + "/ca.key", "-CAcreateserial", "-days", "2",
                                    "-extfile", directory + "/server.ext", "-out", directory + "/server.pem"])
    }

    /// A service-account file whose `token_uri` is this server, and an APNs `.p8` key.
    private static func makeCredentials(in directory: String, tokenURI: String) throws {
        let openssl = try Tools.path(of: "openssl", package: "openssl")
        _ = try Tools.run(openssl, ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048",
                                    "-out", directory + "/service-account.key"])
        _ = try Tools.run(openssl, ["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                                    "-out", directory + "/apns.p8"])
        let key = try String(contentsOfFile: directory + "/service-account.key", encoding: .utf8)
        try write(serviceAccount(privateKey: key, tokenURI: tokenURI), to: directory + "/service-account.json")
    }

    private static func serviceAccount(privateKey: String, tokenURI: String) throws -> String {
        let document: [String: String] = [
            "type": "service_account", "project_id": fcmProject, "private_key_id": "bench",
            "private_key": privateKey, "client_email": "bench@\(fcmProject).iam.gserviceaccount.com", "token_uri": tokenURI,
        ]
        return String(decoding: JSON.document(document), as: UTF8.self)
    }

    private static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}
