import Foundation
#if canImport(Glibc)
import Glibc
#endif

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The outside programs `PushBench e2e` drives (nghttpd, h2load, openssl, the node).
enum Tools {
    /// The program's path on PATH (or /usr/sbin, where Debian puts nghttpd); names the package otherwise.
    static func path(of program: String, package: String) throws -> String {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
            + ["/usr/sbin", "/usr/bin"]
        for directory in directories where FileManager.default.isExecutableFile(atPath: directory + "/" + program) {
            return directory + "/" + program
        }
        throw BenchFailure("\(program) not found: apt-get install \(package) (make bench installs it)")
    }

    /// Runs a program to its end; its standard output and error together. Fails on a non-zero exit.
    static func run(_ path: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: output, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw BenchFailure("\((path as NSString).lastPathComponent) exited \(process.terminationStatus):\n\(text)")
        }
        return text
    }
}

/// Loopback TCP ports for the separate processes.
enum FreePort {
    /// A port the kernel just handed out and released (the usual small race is acceptable here).
    static func pick() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchFailure("socket: errno \(errno)") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw BenchFailure("bind: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Waits until something accepts connections on the port.
    static func waitUntilListening(_ port: Int, timeout: Double) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if (try? LoopbackConnection(port: port)) != nil { return }
            usleep(20_000)
        }
        throw BenchFailure("nothing listens on 127.0.0.1:\(port) after \(timeout) s")
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        return address
    }
}

/// CPU time and memory of another process, from /proc.
enum ProcessStats {
    /// User + system CPU seconds the process has used.
    static func cpuSeconds(_ pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return 0 }
        // After "pid (comm)": field 3 (state) is index 0, utime (14) index 11, stime (15) index 12.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// `VmRSS` (now) or `VmHWM` (the peak since start or since `resetPeak`), in MiB.
    static func residentMiB(_ pid: Int32, peak: Bool = false) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let key = peak ? "VmHWM:" : "VmRSS:"
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key) }),
              let kib = Double(line.dropFirst(key.count).split(whereSeparator: \.isWhitespace).first ?? "") else { return 0 }
        return kib / 1024
    }

    /// Starts a new peak: `VmHWM` becomes the current RSS (writing 5 to clear_refs, Linux ≥ 4.0).
    static func resetPeak(_ pid: Int32) {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/\(pid)/clear_refs"))
    }
}
