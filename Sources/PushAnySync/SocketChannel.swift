import Foundation
import PushSupport

/// A connected TCP socket read and written with deadlines (poll + recv/send). It owns the fd and
/// closes it in deinit. `shutdown()` may be called from another thread to wake a blocked reader.
package final class SocketChannel: @unchecked Sendable {
    // The fd is written only in init and deinit; send/recv on one fd from two threads is safe,
    // and every writer holds `writeLock`.
    package let fd: Int32
    private let writeLock = NSLock()

    package struct Closed: Error, CustomStringConvertible {
        package let description: String
    }

    package init(fd: Int32) {
        self.fd = fd
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(fd) }

    /// Waits until `deadline` (monotonic seconds) for bytes and returns up to `max` of them.
    /// Throws `Closed` on end of stream, error or timeout.
    package func read(max: Int = 65_536, deadline: Double) throws(Closed) -> [UInt8] {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let remaining = deadline - Clocks.monotonicSeconds()
            guard remaining > 0 else { throw Closed(description: "timeout") }
            let rc = poll(&pfd, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if rc < 0 && errno == EINTR { continue }
            guard rc >= 0 else { throw Closed(description: "poll failed") }
            if rc == 0 { continue }
            var buffer = [UInt8](repeating: 0, count: max)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, max, 0) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { throw Closed(description: n == 0 ? "closed by peer" : "read failed") }
            return Array(buffer[0..<n])
        }
    }

    /// Writes every byte before `timeout` seconds pass, or throws.
    package func write(_ bytes: [UInt8], timeout: Double = 10) throws(Closed) {
        guard !bytes.isEmpty else { return }
        writeLock.lock()
        defer { writeLock.unlock() }
        let deadline = Clocks.monotonicSeconds() + timeout
        var offset = 0
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while offset < bytes.count {
            let remaining = deadline - Clocks.monotonicSeconds()
            guard remaining > 0 else { throw Closed(description: "write timeout") }
            let rc = poll(&pfd, 1, Int32((remaining * 1000).rounded(.up)))
            if rc < 0 && errno == EINTR { continue }
            guard rc > 0 else { if rc == 0 { continue }; throw Closed(description: "poll failed") }
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if n < 0 && (errno == EINTR || errno == EAGAIN) { continue }
            guard n > 0 else { throw Closed(description: "write failed") }
            offset += n
        }
    }

    /// Ends both directions, waking any reader (the fd stays open until deinit).
    package func shutdown() { _ = Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
}
