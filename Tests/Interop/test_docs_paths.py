"""Docs that stay true: every repository path that README.md and docs/*.md name exists.

A newcomer follows these names from a behaviour to a file; a file moved or renamed without its
doc line sends them the wrong way. Checked here, against the files git tracks:

- every relative link target `[…](path)`, resolved from the document's folder;
- every backticked name that is a repository path: one that starts with a top-level folder of the
  repository or a Sources target (`Sources/…`, `PushStore/…`, `Tests/…`, `contrib/…`), a partial
  path that must end some tracked path (`Lane/ProviderLane.swift`), or a bare source file name
  (`H2Engine.swift`) that must be some tracked file's name. `*` matches within one name
  (`*+Classify.swift`); a name with a placeholder (`<`, `{`, `…`, `$`) is not a path.
"""
import fnmatch
import os
import re
import subprocess

import pytest

from conftest import ROOT

SOURCE_EXTENSIONS = (".swift", ".py", ".sh", ".h", ".c", ".yaml", ".yml", ".json", ".service", ".in", ".md")
PLACEHOLDERS = ("<", ">", "{", "}", "…", "$", " ", "(", ")", "=", ",", ":")
BACKTICKED = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def tracked_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    files = set(out.split())
    # A worktree's untracked files that git does not ignore count too (a doc and its new file
    # land in one commit).
    extra = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    return files | set(extra.split())


FILES = tracked_files()
DIRS = set()
for name in FILES:
    while (name := os.path.dirname(name)):
        DIRS.add(name)
SUFFIXES = {"/".join(parts[i:]) for path in FILES | DIRS for parts in [path.split("/")] for i in range(len(parts))}
TOP = {p.split("/")[0] for p in FILES}
TARGETS = {p.split("/")[1] for p in FILES if p.startswith("Sources/") and p.count("/") >= 2}
BASENAMES = {os.path.basename(f) for f in FILES}


def documents():
    docs = ["README.md"] + sorted(os.path.join("docs", n) for n in os.listdir(os.path.join(ROOT, "docs"))
                                  if n.endswith(".md"))
    return [d for d in docs if d in FILES]


def exists_as_suffix(path):
    path = path.rstrip("/")
    if "*" in path:
        return any(fnmatch.fnmatchcase(f, "*" + path) or fnmatch.fnmatchcase(f, path) for f in FILES)
    return path in SUFFIXES


def named_paths(text):
    """The backticked names in `text` that are repository paths."""
    for match in BACKTICKED.finditer(text):
        token = match.group(1).strip()
        if any(c in token for c in PLACEHOLDERS) or token.startswith(("/", ".build", "http", "-", "~")):
            continue
        first = token.split("/")[0]
        if "/" in token and (first in TOP or first in TARGETS):
            yield token
        elif "/" in token and token.endswith(SOURCE_EXTENSIONS) and not token.startswith("."):
            yield token
        elif "/" not in token and token.endswith((".swift", ".py", ".sh")):
            yield token


def missing_in(doc):
    """The paths `doc` names that are not in the repository."""
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    missing = []
    for token in named_paths(text):
        if "/" not in token:
            ok = any(fnmatch.fnmatchcase(b, token) for b in BASENAMES) if "*" in token else token in BASENAMES
        else:
            ok = exists_as_suffix(token)
        if not ok:
            missing.append(token)
    for target in LINK.findall(text):
        if target.startswith(("http:", "https:", "mailto:", "#")):
            continue
        rel = os.path.normpath(os.path.join(os.path.dirname(doc), target.split("#")[0]))
        if rel not in FILES and rel not in DIRS:
            missing.append(target)
    return missing


@pytest.mark.parametrize("doc", documents())
def test_every_path_a_document_names_exists(doc):
    assert missing_in(doc) == []


def test_the_check_finds_a_missing_file():
    """The check itself can fail: a made-up file in each form it reads is reported."""
    probe = "docs/__probe__.md"
    path = os.path.join(ROOT, probe)
    with open(path, "w", encoding="utf-8") as f:
        f.write("`PushStore/SQLite/SQLiteStore+Supersede.swift`, `NoSuchFile.swift`, "
                "`Sources/PushHTTP/Gone.swift`, [x](../NoSuchDir/), `*+NoSuch.swift`, "
                "and one that exists: `PushStore/FanOut.swift`\n")
    try:
        assert sorted(missing_in(probe)) == sorted([
            "PushStore/SQLite/SQLiteStore+Supersede.swift", "NoSuchFile.swift",
            "Sources/PushHTTP/Gone.swift", "../NoSuchDir/", "*+NoSuch.swift"])
    finally:
        os.remove(path)
