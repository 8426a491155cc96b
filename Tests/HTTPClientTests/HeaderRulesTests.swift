import Testing
@testable import HTTPClient

@Suite struct HeaderRulesTests {
    /// RFC 9110 §5.6.2's tchar, byte by byte: visible ASCII but the separators.
    @Test func aNameIsATokenOfVisibleASCIIWithoutSeparators() {
        let separators = Set(#"()<>@,;:\"/[]?={}"#.utf8)
        for byte in UInt8(0)...UInt8(0x7f) {
            let expected = byte > 0x20 && byte < 0x7f && !separators.contains(byte)
            #expect(HeaderRules.isValid(name: "x" + String(UnicodeScalar(byte)) + "y") == expected, "byte \(byte)")
        }
        #expect(!HeaderRules.isValid(name: ""))
        #expect(!HeaderRules.isValid(name: "ünï"))
        #expect(HeaderRules.isValid(name: "apns-push-type"))
    }
}
