"""The Filipino word tables (web/js/i18n/fil*.js) and the server's Filipino share words hold none
of the phrases a native reader marked as wrong, stiff or left in English (docs/web.md, Words):
each was replaced by the reader's own, or by the seed's word where the seed has one."""

from __future__ import annotations

import re
from pathlib import Path

from magdagdon.services.share import WORDS

I18N = Path(__file__).resolve().parents[2] / "src" / "magdagdon" / "web" / "js" / "i18n"

#: The phrases as the reader found them ("now"), each with what replaced it.
REPLACED = {
    "ARAW-ARAW": "HAMON NG ARAW / HAMON #3",
    "PAHIWATIG": "MUNGKAHI",
    "pahiwatig": "mungkahi",
    "Iligtas ito ng Majda Power": "Gumamit ng Majda Power para iligtas ito",
    "saanmang MAGDAGDON": "Parehong dice para sa lahat ng naglalaro sa server na ito.",
    "Iisang dice": "Parehong dice",
    "Iisang player sa bawat device": "Iisang player sa lahat ng device mo",
    "Kulang ka pa nang": "Kulang ka pa ng",
    "Lamang ka nang": "Lamang ka ng",
    '"Average"': "Karaniwan",
    '"Median"': "Panggitna",
    "TAPOS ANG LARO": "TAPOS NA ANG LARO",
    "Tapos ang laro": "Tapos na ang laro",
    '"NAUNA"': "NAKARAAN",
    '"Simula"': "Inaasahan sa simula",
    "Na-import: ": "Na-import ang 1 laro; walang nilaktawan.",
    "Hangga't wala, ": "Hangga't wala kang pangalan, ",
    "ng makina": "ng computer",
    "mga bago, araw-araw": "karaniwang laro, hamon ng araw at praktis",
    "naghihintay pa ang KUMPIRMAHIN": "hindi pa puwede ang KUMPIRMAHIN",
    "pagka-KUMPIRMAHIN": "kapag nag-KUMPIRMAHIN ka",
    "kombinasyon": "combination",
    "3 Majda Power ": "3 Majda Powers",
    "Antas ng hirap": "DIFFICULTY",
}


def test_the_filipino_tables_hold_none_of_the_marked_phrases() -> None:
    tables = sorted(I18N.glob("fil*.js"))
    assert len(tables) >= 5
    found = []
    for table in tables:
        text = table.read_text(encoding="utf-8")
        found += [f"{table.name}: {a!r} → {b!r}" for a, b in REPLACED.items() if a in text]
    share = " ".join(WORDS["fil"].values())
    found += [f"share: {now!r}" for now in REPLACED if now.strip('"') in share]
    assert not found, "\n".join(found)


def test_the_share_words_are_the_pages() -> None:
    """The share text says the challenge and the hints as the page does."""
    fil = (I18N / "fil.js").read_text(encoding="utf-8")
    assert re.search(r'dailyNumber: "HAMON #\{n\}"', fil)
    assert WORDS["fil"]["daily"] == "HAMON"
    assert WORDS["fil"]["number"] == "walang combination"
    assert "mungkahi" in WORDS["fil"]["hints"]
