import CCurl

/// Owns one libcurl easy handle and its error buffer. Confined to the event-loop thread.
final class CurlEasy {
    /// The `CURL *`.
    let handle: UnsafeMutableRawPointer
    /// `CURLOPT_ERRORBUFFER`: libcurl writes a detailed message here on failure.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(TransportError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = curl_easy_init() else { throw .other(code: -1, message: "curl_easy_init failed") }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        curl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Clears every option (the multi handle keeps the connections) and re-arms the error buffer.
    func reset() {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
    }

    /// Arms the error buffer; call after `reset` before a transfer.
    func attachErrorBuffer() throws(TransportError) {
        errorBuffer[0] = 0
        try check(pushnode_curl_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, errorBuffer))
    }

    /// The detailed message of the last failure, or libcurl's generic text for `code`.
    func errorMessage(for code: CURLcode) -> String {
        if errorBuffer[0] != 0 { return String(cString: errorBuffer) }
        return String(cString: curl_easy_strerror(code))
    }

    func set(_ option: CURLoption, _ value: Int) throws(TransportError) {
        try check(pushnode_curl_easy_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, _ value: Bool) throws(TransportError) {
        try set(option, value ? 1 : 0)
    }

    /// String options are copied by libcurl, so a temporary C string is fine.
    func set(_ option: CURLoption, _ value: String) throws(TransportError) {
        let rc = value.withCString { pushnode_curl_easy_setopt_ptr(handle, option, $0) }
        try check(rc)
    }

    func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(TransportError) {
        try check(pushnode_curl_easy_setopt_ptr(handle, option, pointer))
    }

    func set(_ option: CURLoption, size: Int) throws(TransportError) {
        try check(pushnode_curl_easy_setopt_off(handle, option, curl_off_t(size)))
    }

    func info(_ item: CURLINFO) -> Int {
        var value = 0
        _ = pushnode_curl_easy_getinfo_long(handle, item, &value)
        return value
    }

    private func check(_ rc: CURLcode) throws(TransportError) {
        guard rc == CURLE_OK else { throw TransportError(curlCode: rc, message: String(cString: curl_easy_strerror(rc))) }
    }
}
