import CCurl

/// `curl_global_init` runs once per process, before the first handle is made.
enum CurlGlobal {
    private static let initResult: CURLcode = pushnode_curl_global_init_all()

    /// Initialises libcurl (once) and reports whether that worked.
    static func ensureInitialized() throws(TransportError) {
        guard initResult == CURLE_OK else { throw TransportError(curlCode: initResult, message: "curl_global_init failed") }
    }
}
