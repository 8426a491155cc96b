"""One list of error codes: the codes `APIError.Code` names, the codes Spec/protocol.md §3.2 gives a
status and a meaning, and the `error.code` enum of Spec/openapi.yaml are the same set.

The schemathesis fuzz test checks answers against the OpenAPI enum, so a code added to the node
but not to the enum fails there only when a fuzzer happens to reach it; this check fails at once.
"""
import os
import re

import yaml

from conftest import ROOT

SWIFT_CODE = re.compile(r'public static let `?\w+`?: Code = "([^"]+)"')
TABLE_ROW = re.compile(r"^\| (\d{3}) \| (.+?) \|")
QUOTED = re.compile(r"`([^`]+)`")


def swift_codes(root):
    text = open(os.path.join(root, "Sources", "PushProtocol", "APIError.swift"), encoding="utf-8").read()
    return set(SWIFT_CODE.findall(text))


def protocol_codes(root):
    text = open(os.path.join(root, "Spec", "protocol.md"), encoding="utf-8").read()
    section = text.split("### 3.2 Error codes", 1)[1].split("\n### ", 1)[0]
    codes = set()
    for line in section.splitlines():
        match = TABLE_ROW.match(line)
        if match:
            codes.update(QUOTED.findall(match.group(2)))
    return codes


def openapi_codes(root):
    document = yaml.safe_load(open(os.path.join(root, "Spec", "openapi.yaml"), encoding="utf-8"))
    schema = document["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]
    return set(schema["enum"])


def test_the_node_the_protocol_and_the_openapi_document_name_the_same_codes():
    node = swift_codes(ROOT)
    assert len(node) >= 20, "the parser found the node's codes"
    assert protocol_codes(ROOT) == node
    assert openapi_codes(ROOT) == node


def test_a_code_missing_from_one_list_is_reported(tmp_path):
    """The check can fail: a code only the node names differs from the other two lists."""
    (tmp_path / "Sources" / "PushProtocol").mkdir(parents=True)
    (tmp_path / "Spec").mkdir()
    original = open(os.path.join(ROOT, "Sources", "PushProtocol", "APIError.swift"), encoding="utf-8").read()
    extra = original.replace('public static let `internal`', 'public static let stray: Code = "stray.code"\n        public static let `internal`')
    (tmp_path / "Sources" / "PushProtocol" / "APIError.swift").write_text(extra)
    assert "stray.code" in swift_codes(tmp_path)
    assert "stray.code" not in protocol_codes(ROOT)
    assert "stray.code" not in openapi_codes(ROOT)
