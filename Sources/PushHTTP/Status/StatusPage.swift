import Foundation
import PushProtocol
import PushCrypto
import PushSupport

/// `/status`: a `NodeStatus` as one self-contained HTML page — tables and an inline SVG chart,
/// no script, no external resource, so the strict `contentSecurityPolicy` (nothing but the one
/// inline style block, by its hash) holds. Pure: the same snapshot renders the same bytes.
/// Every string from the snapshot passes `HTMLText.escape`.
package enum StatusPage {
    /// The answer's headers: the page may load nothing and be framed by nobody.
    package static var headers: [(String, String)] {
        [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", contentSecurityPolicy),
         ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store")]
    }

    /// Only the page's own `<style>` (by its SHA-256) is allowed; no script, image, font, frame,
    /// form target or base URL.
    package static let contentSecurityPolicy =
        "default-src 'none'; style-src 'sha256-\(Base64.encode(SHA256.hash(Array(style.utf8))))'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    package static func render(_ status: NodeStatus) -> [UInt8] {
        var html = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="refresh" content="30">
            <title>pushnode status</title>
            <style>\(style)</style>
            </head><body>

            """
        html += header(status)
        html += providers(status)
        html += StatusChart.section(status.perMinute)
        html += registrations(status)
        html += recent(status)
        html += "<footer>Refreshes every 30 s · the same data as <code>/status.json</code></footer>\n</body></html>\n"
        return Array(html.utf8)
    }

    private static func e(_ text: String) -> String { HTMLText.escape(text) }

    private static func header(_ status: NodeStatus) -> String {
        """
        <header><h1>pushnode</h1>
        <dl class="facts">
        <div><dt>version</dt><dd id="version">\(e(status.version))</dd></div>
        <div><dt>uptime</dt><dd id="uptime">\(e(duration(Double(status.uptimeSeconds))))</dd></div>
        <div><dt>storage</dt><dd id="storage">\(e(status.storage))</dd></div>
        <div><dt>as of</dt><dd><time datetime="\(e(Timestamp.rfc3339(status.generatedAt)))">\(e(clockTime(status.generatedAt))) UTC</time></dd></div>
        </dl></header>

        """
    }

    /// A lane of another app than `default` names its app (PROTOCOL §10).
    private static func appAttribute(_ row: NodeStatus.ProviderRow) -> String {
        row.app == NodeStatus.defaultApp ? "" : " data-app=\"\(e(row.app))\""
    }

    private static func appLabel(_ row: NodeStatus.ProviderRow) -> String {
        row.app == NodeStatus.defaultApp ? "" : " <span class=\"app\">\(e(row.app))</span>"
    }

    private static func providers(_ status: NodeStatus) -> String {
        var rows = ""
        for row in status.providers {
            let failure = row.lastFailure.map { failure in
                "<code>\(e(failure.reason))</code> <span class=\"ago\">\(e(duration(status.generatedAt.timeIntervalSince(failure.at)))) ago</span>"
            } ?? "<span class=\"none\">none</span>"
            rows += """
                <tr data-provider="\(e(row.provider))"\(appAttribute(row))><th scope="row">\(e(row.provider))\(appLabel(row))</th>\
                <td><span class="health \(row.health == .healthy ? "ok" : "bad")">\(e(row.health.rawValue))</span></td>\
                <td class="n">\(row.queueDepth)</td><td class="n">\(e(row.queueDepth == 0 ? "–" : duration(row.oldestAgeSeconds)))</td>\
                <td class="n">\(row.inFlight)</td><td>\(failure)</td></tr>

                """
        }
        if status.providers.isEmpty { rows = "<tr><td colspan=\"6\" class=\"none\">no provider is delivering</td></tr>\n" }
        return """
            <section id="providers"><h2>Providers</h2>
            <table><thead><tr><th>provider</th><th>health</th><th class="n">queued</th><th class="n">oldest</th>\
            <th class="n">in flight</th><th>last failure</th></tr></thead>
            <tbody>
            \(rows)</tbody></table></section>

            """
    }

    private static func registrations(_ status: NodeStatus) -> String {
        let rows = status.registrations.sorted { $0.key < $1.key }.map { platform, count in
            "<tr data-platform=\"\(e(platform))\"><th scope=\"row\">\(e(platform))</th><td class=\"n\">\(count)</td></tr>\n"
        }.joined()
        return """
            <section id="registrations"><h2>Registrations</h2>
            <table><thead><tr><th>platform</th><th class="n">registrations</th></tr></thead>
            <tbody>
            \(rows.isEmpty ? "<tr><td colspan=\"2\" class=\"none\">none yet</td></tr>\n" : rows)</tbody></table></section>

            """
    }

    private static func recent(_ status: NodeStatus) -> String {
        let rows = status.recent.map { item in
            """
            <tr><td><time datetime="\(e(Timestamp.rfc3339(item.at)))">\(e(clockTime(item.at)))</time></td>\
            <td>\(e(item.provider))</td><td>\(e(item.kind))</td><td><span class="outcome \(e(item.outcome.rawValue))">\(e(item.outcome.rawValue))</span></td>\
            <td>\(item.reason.map { "<code>\(e($0))</code>" } ?? "")</td><td><code>\(e(item.notification))</code></td></tr>

            """
        }.joined()
        return """
            <section id="recent"><h2>Recent outcomes</h2>
            <table><thead><tr><th>time (UTC)</th><th>provider</th><th>kind</th><th>outcome</th><th>reason</th>\
            <th>notification</th></tr></thead>
            <tbody>
            \(rows.isEmpty ? "<tr><td colspan=\"6\" class=\"none\">nothing delivered yet</td></tr>\n" : rows)</tbody></table></section>

            """
    }

    /// `3s`, `4m 05s`, `2h 03m`, `3d 04h`.
    static func duration(_ seconds: Double) -> String {
        let s = max(0, Int(seconds.rounded(.down)))
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        switch s {
        case ..<60: return "\(s)s"
        case ..<3600: return "\(s / 60)m \(two(s % 60))s"
        case ..<86400: return "\(s / 3600)h \(two(s % 3600 / 60))m"
        default: return "\(s / 86400)d \(two(s % 86400 / 3600))h"
        }
    }

    /// `09:41:07` (UTC).
    static func clockTime(_ date: Date) -> String {
        let stamp = Timestamp.rfc3339(date)
        return String(stamp.dropFirst(11).prefix(8))
    }

    /// The page's one style block (its hash is in the policy); the legend's swatches take the
    /// chart's colours.
    static let style = """
        body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1180px;padding:16px 24px;\
        color:#1d232b;background:#f6f7f9}\
        h1{font-size:22px;margin:0 24px 0 0}h2{font-size:16px;margin:0 0 8px}\
        header{display:flex;align-items:baseline;flex-wrap:wrap;gap:8px;margin-bottom:16px}\
        .facts{display:flex;gap:24px;margin:0}.facts div{display:flex;gap:6px}dt{color:#66707c}dd{margin:0;font-weight:600}\
        section{background:#fff;border:1px solid #dde1e6;border-radius:6px;padding:12px 16px;margin-bottom:16px}\
        table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 10px;border-bottom:1px solid #eceef1}\
        thead th{color:#66707c;font-weight:600;font-size:12px;text-transform:uppercase}.n{text-align:right}\
        code{font:12px ui-monospace,Menlo,Consolas,monospace}.none,.ago{color:#8a939e}\
        .health,.outcome{padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600}\
        .ok,.delivered{background:#dcf3e3;color:#17663a}.bad,.dead{background:#fbe0e0;color:#9b1c1c}\
        .retried{background:#fff1d6;color:#8a5300}.rejected{background:#ece3fb;color:#5b2a9e}.expired{background:#e8eaed;color:#4a525c}\
        .legend{display:flex;gap:16px;margin:6px 0 0;padding:0;list-style:none;font-size:12px}\
        .swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px}\
        svg{display:block;width:100%;height:auto}footer{color:#8a939e;font-size:12px}
        """ + TryOutcome.allCases.sorted { $0.rawValue < $1.rawValue }
            .map { ".sw-\($0.rawValue){background:\(StatusChart.color($0))}" }.joined()
}
