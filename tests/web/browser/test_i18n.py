"""Every page text exists in English, German, Dutch and Italian, and templates hold none.

The pages render all words from the catalogues in companion/web/i18n/ (R-texts are the
project's own words). These tests read the catalogues, the templates and the ES modules.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import get_args

import pytest

from companion.engine import explain, scoring
from companion.engine.types import EventType
from companion.leds.palette import PLAYER_COLOURS
from companion.web import i18n

WEB = Path(i18n.__file__).resolve().parents[1]
TEMPLATES = sorted((WEB / "templates").glob("*.html"))
SCRIPTS = sorted((WEB / "static" / "js").glob("*.js"))
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def keys_of(lang: str) -> set[str]:
    return set(i18n.catalogue(lang))


def test_every_language_has_every_key():
    english = keys_of("en")
    assert len(english) > 250
    for lang in i18n.LANGUAGES:
        missing = english - keys_of(lang)
        extra = keys_of(lang) - english
        assert not missing, f"{lang} lacks {sorted(missing)}"
        assert not extra, f"{lang} has keys English lacks: {sorted(extra)}"


@pytest.mark.parametrize("lang", [x for x in i18n.LANGUAGES if x != "en"])
def test_translations_keep_placeholders_and_are_not_empty(lang):
    english = i18n.catalogue("en")
    other = i18n.catalogue(lang)
    for key, text in english.items():
        assert other[key].strip(), f"{lang}:{key} is empty"
        assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (
            f"{lang}:{key} has other placeholders than English: {other[key]!r} vs {text!r}"
        )


def test_translations_are_translated():
    """Most texts differ from English (names like "Chocolatl" may stay the same)."""
    english = i18n.catalogue("en")
    for lang in ("de", "nl", "it"):
        other = i18n.catalogue(lang)
        same = [k for k in english if other[k] == english[k] and len(english[k]) > 12]
        assert len(same) < 10, f"{lang}: untranslated? {same[:10]}"


def _static_keys() -> set[str]:
    """Keys named literally in templates (data-i18n, data-i18n-attr) and scripts (t("..."))."""
    found: set[str] = set()
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        for key in re.findall(r'data-i18n="([^"{]+)"', text):
            found.add(key)
        for spec in re.findall(r'data-i18n-attr="([^"]+)"', text):
            found.update(pair.split(":", 1)[1].strip() for pair in spec.split(";"))
        for key in re.findall(r"{%\s*block title_key\s*%}([\w.]+){%", text):
            found.add(key)
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        found.update(re.findall(r'\bt\(\s*"([\w.]+)"', text))
        for key in re.findall(r'\bplural\(\s*"([\w.]+)"', text):
            found.update((f"{key}.one", f"{key}.other"))
    return found


def _plural_keys() -> set[str]:
    """Keys the scripts count with (plural("key", n)): the catalogue holds key.one/key.other."""
    found: set[str] = set()
    for path in SCRIPTS:
        found.update(re.findall(r'\bplural\(\s*"([\w.]+)"', path.read_text(encoding="utf-8")))
    return found


def test_counted_texts_have_a_form_for_one_and_for_more():
    """ "1 players", "1 dice": a text with a count has both forms in every language, each
    with {n}, and the two English forms differ (the noun changes)."""
    keys = _plural_keys()
    assert {"pad.wait_start", "pad.dice_held", "display.dice_could"} <= keys
    english = i18n.catalogue("en")
    for key in sorted(keys):
        assert english[f"{key}.one"] != english[f"{key}.other"], key
        assert key not in english, f"{key}: the uncounted form is left over"
        for lang in i18n.LANGUAGES:
            other = i18n.catalogue(lang)
            for form in ("one", "other"):
                assert "{n}" in other[f"{key}.{form}"], f"{lang}:{key}.{form} has no {{n}}"


def test_dutch_has_one_word_for_the_companion_player():
    """Dutch names the companion player "meespeler" everywhere (not also "tafelhulp", which
    is the app itself: its title and the digital dice)."""
    english = i18n.catalogue("en")
    dutch = i18n.catalogue("nl")
    the_app = {"app.title", "host.dice_digital"}
    mixed = [
        k
        for k, text in english.items()
        if "companion" in text.lower() and k not in the_app and "tafelhulp" in dutch[k].lower()
    ]
    assert not mixed, mixed
    assert "meespeler" in dutch["display.auto"] and "meespeler" in dutch["display.auto_short"]


def test_every_literal_key_used_exists():
    english = keys_of("en")
    used = _static_keys()
    assert len(used) > 150
    missing = sorted(used - english)
    assert not missing, f"keys used by pages but missing from the catalogue: {missing}"


def test_every_dynamic_key_family_is_complete():
    """Keys built at run time (t(`mode.${mode}`) etc.) exist for every value they can take."""
    english = keys_of("en")
    families = {
        "lang": i18n.LANGUAGES,
        "pcolour": PLAYER_COLOURS,
        "mode": ("red", "green", "gold"),
        "mode.how": ("red", "green", "gold"),
        "colour": ("red", "green", "gold"),
        "station": ("1", "2", "3", "4", "5", "6"),
        "stake": ("1", "2", "3", "4", "5", "6"),
        "final": scoring.LINES + ("total",),
        "reason": tuple(explain.SCORE_REASONS),
        "last": tuple(explain.LAST_ROUND_REASONS),
        "step": ("all", "first", "second"),
        "pad.bid_title": ("all", "first", "second", "station"),
        "tie": ("figure", "lower_score", "stack"),
        "wait": ("harvest", "improvements"),
        "phase": ("sacrifice", "setup", "bid", "dice", "roll", "final_roll", "finished"),
        "conn": ("connecting", "reconnecting", "closed", "replaced", "released", "removed"),
        # The host's undo answer (companion.table.undo.undo_check) and the pads' places.
        "undo": (
            "no_game",
            "nothing",
            "dealer",
            "companion",
            "no_dice",
            "no_choice",
            "revealed",
            "possible",
        ),
        "undo.what": ("shown", "ranked", "scored", "cards", "board", "round", "other"),
        "undo.cmd": (
            "bid",
            "sacrifice",
            "dice",
            "roll",
            "city",
            "pyramid",
            "harvest",
            "improvements",
            "track_colors",
        ),
        "pad.notice.undone": ("bid_one", "bid_all", "sacrifice", "dice", "roll", "other"),
        "place": ("1", "2", "3", "4", "5"),
        "cafe.status": ("lobby", "playing", "finished"),
        "host.game_status": ("playing", "finished", "ended"),
        "pad.err": (
            "bad_name",
            "name_invisible",
            "name_characters",
            "name_lookalike",
            "bad_colour",
            "colour_taken",
            "table_full",
            "game_running",
            "bad_secret",
            "illegal",
            "rate_limited",
        ),
        "board": ("connected", "simulated", "disconnected", "none"),
        "host.delivery": ("pending", "delivered", "failed"),
        "admin.done": ("close", "rotate"),
    }
    missing = [
        f"{prefix}.{v}"
        for prefix, values in families.items()
        for v in values
        if f"{prefix}.{v}" not in english
    ]
    assert not missing, missing


def test_every_engine_event_type_has_a_translated_rendering():
    """texts.js renders each engine event from its fields (never from the English text)."""
    source = (WEB / "static" / "js" / "texts.js").read_text(encoding="utf-8")
    cases = set(re.findall(r'case "(\w+)":', source))
    missing = sorted(set(get_args(EventType)) - cases)
    assert not missing, f"event types without a translated rendering: {missing}"
    assert ".text" not in re.sub(r"//.*", "", source), "texts.js must not show the English text"


class _TextFinder(HTMLParser):
    """Collects literal text nodes and literal human-readable attributes."""

    HUMAN_ATTRS = ("title", "alt", "placeholder", "aria-label", "value")

    def __init__(self) -> None:
        super().__init__()
        self.literals: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        for name, value in attrs:
            if name in self.HUMAN_ATTRS and value and re.search(r"[A-Za-z]{2}", value):
                if not (tag == "input" and name == "value"):
                    self.literals.append(f"<{tag} {name}={value!r}>")

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip and data.strip():
            self.literals.append(data.strip())


def _render(path: Path) -> str:
    """The template rendered with data that has no letters, so any word left is literal."""
    from jinja2 import Environment, FileSystemLoader

    env = Environment(loader=FileSystemLoader(str(WEB / "templates")), autoescape=True)
    env.globals["url_for"] = lambda endpoint, **kw: "/" + kw.get("filename", endpoint)
    urls = {
        k: "/1"
        for k in (
            "display",
            "join",
            "qr",
            "join_api",
            "ws_display",
            "ws_seat",
            "ws_host",
            "state",
            "seat_page",
        )
    }
    table = {
        "name": "1",
        "title": "1",
        "status": "lobby",
        "lang": "en",
        "seats_filled": 1,
        "seats_max": 5,
        "urls": urls,
    }
    context = {
        "table": table,
        "urls": urls,
        "tables": [table],
        "join_secret": "1",
        "host_token": "1",
        "colours": [["1", "#000000"], ["2", "#ffffff"]],
    }
    return env.get_template(path.name).render(**context)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_templates_have_no_untranslated_text(path):
    finder = _TextFinder()
    finder.feed(_render(path))
    # Separators such as "·" between translated parts are not words.
    words = [x for x in finder.literals if re.search(r"[^\W\d_]", x)]
    assert not words, f"{path.name} has literal text: {words}"


def test_the_checker_finds_literal_text():
    finder = _TextFinder()
    finder.feed('<p>12</p><button title="Start">Start now</button><script>var x = "a";</script>')
    assert finder.literals == ["12", "<button title='Start'>", "Start now"]


def test_negotiate_picks_a_supported_language():
    assert i18n.negotiate("de-CH,de;q=0.9") == "de"
    assert i18n.negotiate("fr;q=1, it;q=0.4") == "it"
    assert i18n.negotiate("fr") == "en"
    with pytest.raises(ValueError):
        i18n.catalogue("fr")
