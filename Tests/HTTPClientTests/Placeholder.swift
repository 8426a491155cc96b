import Testing

@Suite struct PlaceholderHTTPClientTests { }
