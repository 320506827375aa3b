"""Every rule and document the code cites resolves inside the repository (docs/)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    p
    for folder in ("companion", "tests", "benchmarks", "firmware", "hardware", "docs")
    for p in (ROOT / folder).rglob("*")
    if p.suffix in {".py", ".js", ".html", ".md", ".css"} and "vendor" not in p.parts
] + [ROOT / "README.md"]
CITATION = re.compile(r"(?<![\w.])R([1-9][0-9]?)(?:\.([0-9]+))?(?![\w.]*\w)")


def _rules() -> set[str]:
    text = (ROOT / "docs" / "RULES.md").read_text()
    numbers = set(re.findall(r"^#+ (R[0-9]+)\b", text, re.M))
    numbers |= set(re.findall(r"^\s*- (R[0-9]+\.[0-9]+)\b", text, re.M))
    return numbers


def test_rules_document_is_numbered() -> None:
    rules = _rules()
    assert {"R1", "R1.1", "R5.4", "R7"} <= rules, sorted(rules)


def test_every_rule_citation_resolves() -> None:
    rules = _rules()
    unresolved = []
    for path in SOURCES:
        for n, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for major, minor in CITATION.findall(line):
                rule = f"R{major}" + (f".{minor}" if minor else "")
                if rule not in rules:
                    unresolved.append(f"{path.relative_to(ROOT)}:{n}: {rule}")
    assert not unresolved, unresolved[:20]


def test_every_cited_document_is_in_the_repository() -> None:
    docs = {
        p.name
        for p in ROOT.rglob("*.md")
        if ".venv" not in p.parts and "node_modules" not in p.parts
    }
    missing = []
    for path in SOURCES:
        for name in set(re.findall(r"\b([A-Z][A-Za-z-]+\.md)\b", path.read_text(errors="replace"))):
            if name not in docs:
                missing.append(f"{path.relative_to(ROOT)}: {name}")
    assert not missing, missing
    outside = "../" + "shared/"  # the workspace the documents were first written in
    assert not [p for p in SOURCES if outside in p.read_text(errors="replace")]
