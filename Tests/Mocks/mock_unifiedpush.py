"""UnifiedPush endpoints as a push server like ntfy serves them to a Matrix gateway: a plain
POST of the message (no RFC 8291 record, no VAPID), at most 4096 bytes, answered 200; a topic
that is gone answers 404. Raw bodies are kept for the tests."""

import uuid

from mock_http import Response, json_response

LIMIT = 4096
# Topics with these prefixes always answer so (handy without the control API).
PREFIXES = {"gone-": 404, "busy-": 429, "down-": 503}


class UnifiedPush:
    def __init__(self, state):
        self.state = state

    def send(self, request, topic):
        response = self._answer(request, topic)
        response.record = self.state.remember("unifiedpush", topic, request, response.status)
        return response

    def _answer(self, request, topic):
        if request.method != "POST":
            return json_response(405, {"code": 40501, "http": 405, "error": "method not allowed"})
        if len(request.body) > LIMIT:
            return json_response(413, {"code": 41301, "http": 413, "error": "message too large"})
        entry = self.state.scripted("unifiedpush", topic) or next(
            ({"status": status} for prefix, status in PREFIXES.items() if topic.startswith(prefix)), None)
        if entry and entry.get("status", 200) >= 300:
            status = entry["status"]
            headers = [("retry-after", str(entry["retryAfter"]))] if "retryAfter" in entry else []
            return json_response(status, {"code": status * 100 + 1, "http": status, "error": "scripted"}, headers)
        return json_response(200, {"id": uuid.uuid4().hex[:12], "event": "message", "topic": topic})
