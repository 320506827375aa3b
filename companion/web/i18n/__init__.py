"""Translations of every page text (English, German, Dutch, Italian).

One flat JSON catalogue per language, ``key -> text`` with ``{name}`` placeholders. The pages
fetch a catalogue and render every text, including event explanations, from these keys; the
server only needs :func:`catalogue` and :func:`negotiate`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from companion.players import review

# The languages the companion speaks: one list, the review texts' (players/review.py), handed
# to every page by base.html.
LANGUAGES: tuple[str, ...] = review.LANGUAGES
DEFAULT = "en"
_HERE = Path(__file__).resolve().parent


class UnknownLanguage(ValueError):
    """A language code that has no catalogue."""


def path(lang: str) -> Path:
    """The catalogue file of ``lang``."""
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"no translations for {lang!r}; known: {', '.join(LANGUAGES)}")
    return _HERE / f"{lang}.json"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """All texts of ``lang`` (read once)."""
    with path(lang).open(encoding="utf-8") as f:
        texts: dict[str, str] = json.load(f)
    return texts


def negotiate(accept_language: str | None) -> str:
    """The first supported language of an ``Accept-Language`` header, else English.

    >>> negotiate("nl-BE,nl;q=0.9,en;q=0.8")
    'nl'
    >>> negotiate("fr-FR, it;q=0.5")
    'it'
    >>> negotiate(None)
    'en'
    """
    if not accept_language:
        return DEFAULT
    ranked = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        ranked.append((-q, i, tag.strip().lower().split("-")[0]))
    for _q, _i, base in sorted(ranked):
        if base in LANGUAGES:
            return base
    return DEFAULT
