#if canImport(Glibc)
import Glibc
#endif

/// One keep-alive HTTP/1.1 connection to a loopback port, a request at a time, on raw sockets:
/// the cheapest client, so the benchmark measures the node and not the client.
final class LoopbackConnection {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            close(fd)
            throw Failure(description: "connect: errno \(errno)")
        }
    }

    deinit { close(fd) }

    /// Sends the whole request and reads one response; returns its status and body.
    func exchange(_ request: [UInt8]) throws -> (status: Int, body: [UInt8]) {
        var sent = 0
        while sent < request.count {
            let n = request.withUnsafeBytes { send(fd, $0.baseAddress! + sent, request.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += n
        }
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.count >= 12, let status = Int(statusLine.dropFirst(9).prefix(3)) else {
            throw Failure(description: "bad status line")
        }
        var length = 0
        for line in lines.dropFirst() where line.lowercased().hasPrefix("content-length:") {
            length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: " ")) ?? 0
        }
        let bodyStart = headEnd + 4
        while buffer.count < bodyStart + length { try fill() }
        let body = Array(buffer[bodyStart..<(bodyStart + length)])
        buffer.removeFirst(bodyStart + length)
        return (status, body)
    }

    private func readUntilHeadEnd() throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                for i in searchFrom...(buffer.count - 4)
                where buffer[i] == 13 && buffer[i + 1] == 10 && buffer[i + 2] == 13 && buffer[i + 3] == 10 {
                    return i
                }
                searchFrom = buffer.count - 3
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { throw Failure(description: "recv: connection closed (errno \(errno))") }
        buffer.append(contentsOf: chunk[..<n])
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
