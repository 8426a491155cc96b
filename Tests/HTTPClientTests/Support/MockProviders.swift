import Foundation
import HTTPClient

/// The Python mock providers (`Tests/Mocks/mockproviders.py`) running for this test
/// process: started once on free ports, stopped when the test process ends.
///
/// Python comes from `$PUSHNODE_PYTHON`, else `<repo>/.venv/bin/python` (`make venv`);
/// without either the tests fail with a message saying so, they never skip.
final class MockProviders: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let tlsPort: Int
    let httpPort: Int
    let caFile: String
    let otherCaFile: String
    private let control: HTTPClient

    var tlsBase: String { "https://127.0.0.1:\(tlsPort)" }
    var httpBase: String { "http://127.0.0.1:\(httpPort)" }

    private static let instance = Result { () throws(Failure) -> MockProviders in try MockProviders() }

    private static let floodInstance = Result { () throws(Failure) -> MockProviders in try MockProviders() }

    /// The shared mock, started on first use.
    static func shared() throws -> MockProviders {
        try instance.get()
    }

    /// A second mock process for the test that floods it with thousands of requests: the mock
    /// answers on one asyncio loop, so a flood on the shared one would queue every other test's
    /// requests behind it, past their deadlines once the client runs under a sanitizer.
    static func flood() throws -> MockProviders {
        try floodInstance.get()
    }

    private init() throws(Failure) {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let python = try Self.python(root: root)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("pushnode-mock-\(getpid())-\(UUID().uuidString.prefix(8))").path
        let readyFile = directory + "/ready.json"
        let logFile = directory + "/mock.log"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            root.appendingPathComponent("Tests/Mocks/mockproviders.py").path,
            "--dir", directory, "--ready-file", readyFile, "--exit-with-parent",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle(forWritingAtPath: logFile)
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot start the mock providers with \(python): \(error)")
        }

        var ready: [String: Any]?
        for _ in 0..<600 where ready == nil {
            if let data = FileManager.default.contents(atPath: readyFile) {
                ready = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            } else if !process.isRunning {
                break
            } else {
                usleep(50_000)
            }
        }
        guard let ready, let tls = ready["tlsPort"] as? Int, let http = ready["httpPort"] as? Int,
              let ca = ready["caFile"] as? String, let otherCa = ready["otherCaFile"] as? String else {
            let log = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
            process.terminate()
            throw Failure(description: "the mock providers did not become ready:\n\(log.suffix(2000))")
        }
        tlsPort = tls
        httpPort = http
        caFile = ca
        otherCaFile = otherCa
        do {
            control = try HTTPClient(configuration: HTTPClientConfiguration(requestTimeout: .seconds(10)))
        } catch {
            throw Failure(description: "control client: \(error)")
        }
    }

    private static func python(root: URL) throws(Failure) -> String {
        if let configured = ProcessInfo.processInfo.environment["PUSHNODE_PYTHON"], !configured.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: configured) else {
                throw Failure(description: "PUSHNODE_PYTHON=\(configured) is not an executable")
            }
            return configured
        }
        let venv = root.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venv) else {
            throw Failure(description: """
                no Python for the mock providers: set PUSHNODE_PYTHON to a python with \
                Tests/Interop/requirements.txt installed, or run `make venv` to create \(venv)
                """)
        }
        return venv
    }

    // MARK: - Control API

    /// `POST /_mock/script`: the next requests for `token` get `responses`, then `then`.
    func script(provider: String, token: String, responses: [[String: Any]], then: [String: Any]? = nil) async throws {
        var document: [String: Any] = ["provider": provider, "token": token, "responses": responses]
        if let then { document["then"] = then }
        _ = try await call("POST", "/_mock/script", document)
    }

    /// `GET /_mock/requests`: what the mock received for `token`.
    func requests(provider: String, token: String) async throws -> [[String: Any]] {
        let answer = try await call("GET", "/_mock/requests?provider=\(provider)&token=\(token)")
        return answer["requests"] as? [[String: Any]] ?? []
    }

    /// `GET /_mock/stats`, the entry of one connection.
    func connectionStats(id: Int) async throws -> [String: Any]? {
        let answer = try await call("GET", "/_mock/stats")
        let connections = answer["perConnection"] as? [[String: Any]] ?? []
        return connections.first { $0["id"] as? Int == id }
    }

    /// `POST /_mock/goaway?connection=`: graceful GOAWAY on one connection.
    func goaway(connection: Int) async throws {
        _ = try await call("POST", "/_mock/goaway?connection=\(connection)")
    }

    @discardableResult
    func call(_ method: String, _ path: String, _ document: [String: Any]? = nil) async throws -> [String: Any] {
        let body = try document.map { try Array(JSONSerialization.data(withJSONObject: $0)) } ?? []
        let response = try await control.send(ClientRequest(
            method: method, url: httpBase + path, headers: [("content-type", "application/json")], body: body))
        guard response.status == 200 else {
            throw Failure(description: "mock control \(method) \(path): \(response.status)")
        }
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }
}

extension ClientResponse {
    /// The body as a JSON object (the mock's echo and control answers).
    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] ?? [:]
    }
}
