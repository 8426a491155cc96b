"""Rules of the source tree that the compiler cannot hold (docs/architecture.md, "One home per rule").

One JSON namespace: Foundation's JSON types are called only inside `PushProtocol/Wire/`, the home
of `JSON` (encode, decode and loosely shaped documents); every other file goes through it.
"""
import os
import re

from conftest import ROOT

FOUNDATION_JSON = re.compile(r"\b(JSONSerialization\s*\.|JSONEncoder\s*\(|JSONDecoder\s*\()")
JSON_HOME = os.path.join("Sources", "PushProtocol", "Wire")


def foundation_json_calls(root):
    found = []
    for folder, _, names in os.walk(os.path.join(root, "Sources")):
        for name in names:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, root)
            if rel.startswith(JSON_HOME + os.sep):
                continue
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                code = line.split("//", 1)[0]
                if FOUNDATION_JSON.search(code):
                    found.append(f"{rel}:{number}")
    return found


def test_foundation_json_is_called_only_in_the_json_namespace():
    assert foundation_json_calls(ROOT) == []


def test_the_rule_finds_a_call_outside_its_home(tmp_path):
    """The check can fail: a file outside the home that calls JSONSerialization is reported."""
    folder = tmp_path / "Sources" / "PushEngine"
    folder.mkdir(parents=True)
    (folder / "Stray.swift").write_text("let x = try? JSONSerialization.jsonObject(with: d)\n// JSONDecoder() in a comment\n")
    home = tmp_path / "Sources" / "PushProtocol" / "Wire"
    home.mkdir(parents=True)
    (home / "JSON.swift").write_text("let e = JSONEncoder()\n")
    assert foundation_json_calls(str(tmp_path)) == [os.path.join("Sources", "PushEngine", "Stray.swift") + ":1"]
