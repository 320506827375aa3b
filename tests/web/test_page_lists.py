"""One list of languages and one of final-scoring lines, from the server to every page.

The pages once kept their own copies (i18n.js ``LANGUAGES``, format.js ``FINAL_LINES``) of
``companion/web/i18n`` and ``companion/engine/scoring.py``; now base.html hands the server's
lists to every page and the scripts read them there.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from flask.testing import FlaskClient

from companion.engine.scoring import LINES
from companion.players import review
from companion.web import i18n

STATIC_JS = Path(i18n.__file__).resolve().parents[1] / "static" / "js"


def meta(page: str, name: str) -> list[str]:
    found = re.search(rf'<meta name="{name}" content="([^"]*)">', page)
    assert found, f"no {name} meta on the page"
    return json.loads(html.unescape(found.group(1)))


def test_every_page_gets_the_servers_lists(app_client: FlaskClient) -> None:
    for url in ("/", "/t/1/", "/t/1/seat"):
        answer = app_client.get(url)
        assert answer.status_code == 200, url
        page = answer.get_data(as_text=True)
        assert meta(page, "languages") == list(i18n.LANGUAGES), url
        assert meta(page, "final-lines") == list(LINES), url


def test_the_languages_are_one_list() -> None:
    assert i18n.LANGUAGES is review.LANGUAGES
    for lang in i18n.LANGUAGES:
        assert i18n.path(lang).is_file(), lang


def test_no_script_keeps_its_own_copy() -> None:
    """No literal list of the languages or of the lines in the pages' scripts."""
    languages = re.compile(r"\[\s*" + r",\s*".join(f'"{x}"' for x in i18n.LANGUAGES[:2]))
    for path in sorted(STATIC_JS.glob("*.js")):
        source = path.read_text(encoding="utf-8")
        assert not languages.search(source), f"{path.name} lists the languages"
        assert '"sacrifice_bonus"' not in source, f"{path.name} lists the final lines"
