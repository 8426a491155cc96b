import PushCrypto
import PushProtocol

/// Whole HTTP/1.1 requests for `LoopbackConnection`, signed per PROTOCOL §2.
enum SignedRequest {
    /// `method path` with `body` (JSON when not empty), signed by `key`.
    static func make(_ method: String, _ path: String, body: [UInt8] = [], signer: HTTPSigner) -> [UInt8] {
        let headers = try! signer.sign(method: method, path: path, body: body)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        if !body.isEmpty { head += "Content-Type: application/json\r\n" }
        for field in headers.fields { head += "\(field.name): \(field.value)\r\n" }
        return Array((head + "\r\n").utf8) + body
    }

    /// An unsigned GET (`/metrics`, `/readyz`).
    static func get(_ path: String) -> [UInt8] {
        Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
    }
}
