import Foundation
import PushNet

/// A listening TCP socket (owns the fd).
final class AnySyncListener: @unchecked Sendable {
    // fd is fixed after init; accept and shutdown from different threads are safe on Linux.
    let fd: Int32
    let port: Int

    init(address: ListenAddress) throws {
        let resolved = try SocketAddress.resolve(address)
        let fd = socket(resolved.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw AnySyncDoor.StartError(description: "anysync.listen: socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = resolved.withSockaddr { bind(fd, $0, resolved.length) }
        guard bound == 0, listen(fd, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw AnySyncDoor.StartError(description: "anysync.listen: cannot listen on \(address): \(reason)")
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        let port: UInt16 = withUnsafeBytes(of: storage) { raw in
            // sin_port and sin6_port sit at the same offset, in network order.
            UInt16(raw[2]) << 8 | UInt16(raw[3])
        }
        self.fd = fd
        self.port = Int(port)
    }

    /// The next connection's fd, or nil once the listener was shut down.
    func accept() -> Int32? {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 { return client }
            if errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE {
                if errno == EMFILE || errno == ENFILE { usleep(50_000) }
                continue
            }
            return nil
        }
    }

    /// Wakes a blocked `accept` (which then returns nil).
    func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    deinit { close(fd) }
}
