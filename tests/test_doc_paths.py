"""Every file the documentation names is in the repository: a path (``store/queries.py``,
``js/app/app.js``, ``docs/rules.md``) from the root, beside the document or as the end of a
path in the tree; a bare file name (``tables.py``) somewhere in the tree. The comments of the
source (Python, JavaScript, CSS, HTML) are read the same way. A moved or removed file then fails
here rather than leaving a reference that leads nowhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
SUFFIXES = "py|js|css|html|md|json|toml|txt|webmanifest|sh|conf"
A_PATH = re.compile(
    rf"""(?<![\w/.:<*-])             # not inside a longer name, a URL or a pattern
    (   (?:[\w.-]+/)+                # folders, then
        (?:[\w.-]+\.(?:{SUFFIXES})\b  # a file,
        | (?=[\s`),;]) )             # or nothing: a folder (js/core/)
    |   [\w-]+\.(?:{SUFFIXES})\b )   # or a bare file name
    (?![\w*/<>-])""",
    re.VERBOSE,
)
TREES = ("src", "tests", "bench", "tools", "docs")
#: What the tests and the build write (ignored by git): named as where to look, not in the tree.
MADE = ("artifacts/", "build/")


#: A comment in each kind of source file: its text is read as a document's line is.
COMMENTS = {
    ".py": re.compile(r"#.*$"),
    ".js": re.compile(r"//.*$|/\*.*?(?:\*/|$)|^\s*\*.*$"),
    ".mjs": re.compile(r"//.*$|/\*.*?(?:\*/|$)|^\s*\*.*$"),
    ".css": re.compile(r"/\*.*?(?:\*/|$)|^\s*\*.*$"),
    ".html": re.compile(r"<!--.*?(?:-->|$)"),
}
SOURCES = sorted(
    path for path in (ROOT / "src").rglob("*") if path.suffix in COMMENTS and path.is_file()
)


def named_files(document: Path) -> list[tuple[int, str]]:
    found = []
    comment = COMMENTS.get(document.suffix)
    for number, whole in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
        parts = [m.group(0) for m in comment.finditer(whole)] if comment else [whole]
        for line in parts:
            for match in A_PATH.finditer(line):
                if "://" in line[max(0, match.start() - 12) : match.start() + 3]:
                    continue  # a URL's path
                found.append((number, match.group(1)))
    return found


def exists(name: str, document: Path) -> bool:
    """Whether ``name`` is a file or folder of the tree: from the repository's root or beside
    the document, else as the end of a path in the tree (``migrations/versions/`` is the
    store's)."""
    if name.startswith(MADE) or (ROOT / name).exists() or (document.parent / name).exists():
        return True
    end = "/" + name.rstrip("/")
    return any(
        str(found).endswith(end) for tree in TREES for found in (ROOT / tree).rglob(Path(name).name)
    )


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_file_a_document_names_is_there(document: Path) -> None:
    missing = [
        f"line {n}: {name}" for n, name in named_files(document) if not exists(name, document)
    ]
    assert not missing, f"{document.name} names files that are not in the repository: {missing}"


@pytest.mark.parametrize("source", SOURCES, ids=lambda d: str(d.relative_to(ROOT)))
def test_every_file_a_comment_names_is_there(source: Path) -> None:
    missing = [f"line {n}: {name}" for n, name in named_files(source) if not exists(name, source)]
    assert not missing, f"{source.name}'s comments name files that are not there: {missing}"


def test_the_comments_of_code_are_read_and_not_its_code(tmp_path: Path) -> None:
    source = tmp_path / "page.js"
    source.write_text(
        'import { h } from "./lib/dom.js"; // drawn as js/render/board.js says\n'
        "/* kept by js/core/nowhere.js */\n",
        encoding="utf-8",
    )
    assert [name for _, name in named_files(source)] == [
        "js/render/board.js",
        "js/core/nowhere.js",
    ]


def test_the_check_finds_the_paths_it_is_for(tmp_path: Path) -> None:
    document = tmp_path / "notes.md"
    document.write_text(
        "See `store/queries.py`, js/app/app.js and `tables.py`; `js/core/` holds the app;\n"
        "not https://example.org/a/b.py nor `rev<NNNN>_<slug>.py`; gone: `store/nowhere.py`.\n",
        encoding="utf-8",
    )
    names = [name for _, name in named_files(document)]
    assert names == [
        "store/queries.py",
        "js/app/app.js",
        "tables.py",
        "js/core/",
        "store/nowhere.py",
    ]
    assert [name for name in names if not exists(name, document)] == ["store/nowhere.py"]
