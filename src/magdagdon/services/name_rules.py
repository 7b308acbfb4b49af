"""The rule of a display name (shown on the daily table, as text only): a name is read by other
players, so it must be seen, and must not pass for another player.

- Unicode NFKC first (full-width, ligatures and compatibility forms become plain letters, every
  space a plain one), then trimmed, and every run of spaces made one space.
- Only letters, combining marks, numbers, spaces, punctuation and the keyboard's ASCII symbols
  (``<``, ``+``, ``~``…): no other symbol (emoji, Braille), no control, format
  (zero-width spaces and joiners, tag characters, the byte-order mark, direction marks), private
  or unassigned character, and none of the letters that show as nothing (the Hangul fillers,
  the Khmer inherent vowels, the combining grapheme joiner, variation selectors).
- At most :data:`MAX_MARKS` combining marks on one character, and none first ("zalgo" text
  spills over its neighbours' lines).
- Not the neutral name of an unnamed player in either language ("Manlalaro 4F2A", "Player
  4F2A"), compared after folding case, marks, lookalike letters from other scripts (Cyrillic
  "а" for Latin "a") and the digits that pass for letters: otherwise one player could show as
  another. A name that equals another *chosen* name is allowed: names are not unique (two
  players may both be "Majda"), and the unnamed ones are the only names the server gives.
"""

from __future__ import annotations

import re
import unicodedata

from magdagdon.services.errors import InvalidNameError

MAX_LENGTH = 20
MAX_MARKS = 2  # combining marks on one character: Vietnamese needs two ("ệ")
_ALLOWED_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No"}
_PUNCTUATION = {"Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"}
_ASCII = set(" $+<=>^`|~")  # the space and the keyboard's symbols (the page shows text only)
#: Letters and marks that show as nothing (Unicode's default-ignorable ones not in Cf).
_INVISIBLE = {
    0x034F,  # combining grapheme joiner
    0x115F,
    0x1160,
    0x3164,
    0xFFA0,  # Hangul fillers
    0x17B4,
    0x17B5,  # Khmer inherent vowels
    *range(0x180B, 0x1810),  # Mongolian free variation selectors and vowel separator
    *range(0xFE00, 0xFE10),  # variation selectors
    *range(0xE0100, 0xE01F0),  # variation selectors supplement
}
#: Letters of other scripts that look like Latin ones (the lower case of each, after casefold).
_LOOKALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "ѕ": "s", "т": "t", "у": "y",
        "х": "x", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ı": "i", "ł": "l",
        "0": "o", "1": "l", "i": "l", "|": "l",
    }
)  # fmt: skip
#: An unnamed player's name, folded as :func:`skeleton` folds: the word, then the tag's four
#: hexadecimal digits (as folded: 0 → o, 1 → l) or letters that pass for them.
_NEUTRAL = re.compile(r"(manlalaro|player)[0-9a-folsgzq]{4}")


def clean(text: str) -> str:
    """The name to keep for ``text``, or :class:`InvalidNameError` saying why not."""
    name = re.sub(" {2,}", " ", unicodedata.normalize("NFKC", text).strip(" "))
    if not name:
        raise InvalidNameError("a name has at least one character that is not a space")
    if len(name) > MAX_LENGTH:
        raise InvalidNameError(f"a name has at most {MAX_LENGTH} characters, not {len(name)}")
    for char in name:
        category = unicodedata.category(char)
        if ord(char) in _INVISIBLE or not (
            char in _ASCII or category in _ALLOWED_CATEGORIES or category in _PUNCTUATION
        ):
            raise InvalidNameError(
                f"a name may not hold the character U+{ord(char):04X} (only letters, numbers, "
                "spaces and punctuation that show)"
            )
    marks = 0
    for index, char in enumerate(unicodedata.normalize("NFD", name)):  # every mark apart
        if unicodedata.category(char).startswith("M"):
            marks += 1
            if index == 0 or marks > MAX_MARKS:
                raise InvalidNameError(
                    f"a name has at most {MAX_MARKS} marks on a letter, and none on its own"
                )
        else:
            marks = 0
    if _NEUTRAL.fullmatch(skeleton(name)):
        raise InvalidNameError(
            "a name may not read like the name of a player who has set none "
            '("Manlalaro 4F2A", "Player 4F2A")'
        )
    return name


def skeleton(name: str) -> str:
    """``name`` as it reads: case, marks, spaces and punctuation left out, lookalike letters and
    digits made one."""
    decomposed = unicodedata.normalize("NFKD", name).casefold()
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return "".join(c for c in bare.translate(_LOOKALIKES) if c.isalnum())
