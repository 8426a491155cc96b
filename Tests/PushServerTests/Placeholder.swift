import Testing

@Suite struct PlaceholderPushServerTests { }
