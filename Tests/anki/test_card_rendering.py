"""Every card deckport renders is what the real Anki backend renders, and `convert --to cards`
is Anki's own "Cards in Plain Text".

For every Anki-made and real fixture package, and ``fixtures/rendering/templates.apkg`` (a
collection whose templates use every part of Anki's template language, blank fronts, a removed
cloze and templates that do not parse; ``fixtures/rendering/make_template_package.py``):

* ``deckport render PACKAGE --json`` gives, for each card id, the question, answer and styling
  the backend renders for that card in the package's own collection
  (``fixtures/anki_render.py``: ``render_existing_card`` without the Python front end), and a
  ``problem`` exactly for the cards the backend shows a message for (``is_empty``, or a
  ``TemplateError`` whose message is then both sides);
* ``deckport convert PACKAGE OUT --to cards`` (and with ``--html false``) writes byte for byte
  the file the backend's ``export_card_csv`` writes. Where a template cannot be rendered, the
  backend's export fails as a whole; deckport writes that card with Anki's message and warns,
  so the backend's export of the other cards is compared with deckport's rows for them. A
  package without cards is refused (Anki writes its two header lines alone).
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess

import pytest

from conftest import FIXTURES, REPO, fixture_packages

DECKPORT = os.environ.get("DECKPORT_BIN") or os.path.join(REPO, ".build", "debug", "deckport")
if not os.path.isabs(DECKPORT):
    DECKPORT = os.path.join(REPO, DECKPORT)
if not (os.path.isfile(DECKPORT) and os.access(DECKPORT, os.X_OK)):
    pytest.skip(f"the deckport binary does not exist yet ({DECKPORT})", allow_module_level=True)

from anki_render import card_csv, rendered_cards  # noqa: E402

TEMPLATES = os.path.join(FIXTURES, "rendering", "templates.apkg")
PACKAGES = fixture_packages() + [TEMPLATES]
IDS = [os.path.basename(p) for p in PACKAGES]

_RENDERS: dict[str, dict] = {}


def backend_renders(package: str) -> dict[int, dict]:
    if package not in _RENDERS:
        _RENDERS[package] = rendered_cards(package)
    return _RENDERS[package]


def deckport(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([DECKPORT, *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_each_card_is_what_anki_renders(package):
    result = deckport("render", package, "--json", "--verbose")
    assert result.returncode == 0, result.stderr
    ours = json.loads(result.stdout)
    theirs = backend_renders(package)
    assert sorted(card["id"] for card in ours["cards"]) == sorted(theirs), "the same cards"
    styling = {entry["noteType"]: entry["css"] for entry in ours["styling"]}
    for card in ours["cards"]:
        expected = theirs[card["id"]]
        where = f"card {card['id']} ({card['noteType']}, {card['template']})"
        assert card["question"] == expected["question"], f"{where}: question"
        assert card["answer"] == expected["answer"], f"{where}: answer"
        problem = card.get("problem")
        if expected["error"]:
            assert problem and problem["kind"] == "template-error", where
        elif expected["empty"]:
            assert problem and problem["kind"] in ("blank-front", "missing-cloze"), where
            assert styling[card["noteType"]] == expected["css"], f"{where}: css"
        else:
            assert problem is None, f"{where}: {problem}"
            assert styling[card["noteType"]] == expected["css"], f"{where}: css"
    # Every card the backend cannot render is named in a warning.
    for card_id, expected in theirs.items():
        if expected["error"] or expected["empty"]:
            assert f"card {card_id} " in result.stderr


def records(text: str) -> list[list[str]]:
    """The rows of a Cards in Plain Text file, read by Python's own CSV reader."""
    lines = [line for line in io.StringIO(text, newline="") if not line.startswith("#")]
    return list(csv.reader(lines, delimiter="\t"))


@pytest.mark.parametrize("with_html", [True, False], ids=["html", "plain"])
@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_cards_in_plain_text_are_ankis(package, with_html, tmp_path):
    out = tmp_path / "cards.txt"
    args = ["convert", package, str(out), "--to", "cards", "--verbose"]
    if not with_html:
        args += ["--html", "false"]
    result = deckport(*args)
    renders = backend_renders(package)
    if not renders:
        # Anki writes the two header lines alone, a file its importer refuses as empty;
        # deckport refuses to write it, as it does a notes CSV without notes.
        assert result.returncode == 1 and "holds no cards" in result.stderr
        assert not out.exists()
        return
    assert result.returncode == 0, result.stderr
    ours = out.read_text(encoding="utf-8")
    failing = sorted(card_id for card_id, render in renders.items() if render["error"])
    if not failing:
        assert ours == card_csv(package, with_html)
        return
    # Anki's export stops at the first template it cannot render: its export of the other
    # cards is compared row by row, and the failing cards hold Anki's message.
    assert card_csv(package, with_html).startswith("ERROR: ")
    rendered = sorted(card_id for card_id in renders if card_id not in failing)
    theirs = card_csv(package, with_html, card_ids=rendered)
    assert ours.splitlines()[:2] == theirs.splitlines()[:2], "the header lines"
    our_rows = dict(zip(sorted(renders), records(ours)))
    assert [our_rows[card_id] for card_id in rendered] == records(theirs)
    for card_id in failing:
        message = renders[card_id]["question"]
        if with_html:
            assert our_rows[card_id] == [message, message]
        else:
            assert our_rows[card_id][0] == our_rows[card_id][1] != ""
        assert f"card {card_id} " in result.stderr
