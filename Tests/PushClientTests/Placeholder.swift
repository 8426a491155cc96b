import Testing

@Suite struct PlaceholderPushClientTests { }
