import CCurl

/// Owns the libcurl multi handle: its connection cache is what reuses and multiplexes
/// connections. Only `wakeup()` may be called off the event-loop thread.
final class CurlMulti: @unchecked Sendable {
    /// The `CURLM *`.
    let handle: UnsafeMutableRawPointer

    init(maxConnectionsPerHost: Int, maxConcurrentStreams: Int) throws(TransportError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = curl_multi_init() else { throw .other(code: -1, message: "curl_multi_init failed") }
        self.handle = handle
        try check(pushnode_curl_multi_setopt_long(handle, CURLMOPT_PIPELINING, pushnode_curl_pipe_multiplex()))
        try check(pushnode_curl_multi_setopt_long(handle, CURLMOPT_MAX_HOST_CONNECTIONS, max(1, maxConnectionsPerHost)))
        try check(pushnode_curl_multi_setopt_long(handle, CURLMOPT_MAX_CONCURRENT_STREAMS, max(1, maxConcurrentStreams)))
    }

    deinit {
        curl_multi_cleanup(handle)
    }

    func add(_ easy: CurlEasy) throws(TransportError) {
        try check(curl_multi_add_handle(handle, easy.handle))
    }

    func remove(_ easy: CurlEasy) {
        _ = curl_multi_remove_handle(handle, easy.handle)
    }

    /// Drives every transfer as far as it can go without blocking.
    func perform() {
        var running: Int32 = 0
        _ = curl_multi_perform(handle, &running)
    }

    /// Waits for socket activity, curl's own timers, `wakeup()`, or `timeoutMs`.
    func poll(timeoutMs: Int) {
        _ = curl_multi_poll(handle, nil, 0, Int32(clamping: timeoutMs), nil)
    }

    /// Interrupts `poll` from any thread.
    func wakeup() {
        _ = curl_multi_wakeup(handle)
    }

    /// Finished transfers: the easy handle and its result, in completion order.
    func completedTransfers() -> [(handle: UnsafeMutableRawPointer, result: CURLcode)] {
        var done: [(handle: UnsafeMutableRawPointer, result: CURLcode)] = []
        var left: Int32 = 0
        while let message = curl_multi_info_read(handle, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            done.append((easy, message.pointee.data.result))
        }
        return done
    }

    private func check(_ rc: CURLMcode) throws(TransportError) {
        guard rc == CURLM_OK else {
            throw .other(code: Int(rc.rawValue), message: String(cString: curl_multi_strerror(rc)))
        }
    }
}
