import Testing

@Suite struct PlaceholderPushProtocolTests { }
