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

Two more packages are made here with the backend, for what Swift's text handling would make
differ from Anki's bytes (``BUILT``): ``exact_bytes``, templates whose ``{{=<% %>=}}`` is followed
by a combining mark, a joiner or a variation selector (on the front or the back alone), that name
a field in another normalization form than its own (``{{Nai\u0308ve}}`` for ``Naïve``, U+212B for
``Å``, a section opened in one form and closed in the other), and a ``tts`` filter whose options
start with a mark; ``legacy_names``, a legacy package whose collection holds deck names Anki
never stores (``  Spaced  ::  kid ``, ``A::::B``, a control character, NFD) and two note types of
one name with their own CSS. Each card's styling is found by its ``noteTypeId``; each card's
``deck`` and ``noteType`` are the names the backend gives its home deck and note type.

Names Anki takes for one (ignoring case, after NFC) in a legacy package: ``duplicate_fields``,
a note type with two fields and three templates so named, which every opening of the collection
renames alike (the later gets ``+``: ``Dup+``, ``card+``, ``CARD++``; a back naming ``{{Dup}}``
then finds no field), judged as the others are, and through the package ``convert`` writes from
it; ``duplicate_names``, the same with two decks (``alpha``, ``ALPHA``) and two note types
(``Twin``) so named, of which Anki renames one (``_``), a different one from one opening to the
next: deckport's render is compared with an opening that renamed the ones deckport shows renamed
(``rendered_cards_of_opening``), and it warns of each.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import unicodedata
import zipfile

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions

from conftest import FIXTURES, REPO, fixture_packages

DECKPORT = os.environ.get("DECKPORT_BIN") or os.path.join(REPO, ".build", "debug", "deckport")
if not os.path.isabs(DECKPORT):
    DECKPORT = os.path.join(REPO, DECKPORT)
if not (os.path.isfile(DECKPORT) and os.access(DECKPORT, os.X_OK)):
    pytest.skip(f"the deckport binary does not exist yet ({DECKPORT})", allow_module_level=True)

from anki_render import card_csv, rendered_cards, rendered_cards_of_opening, restored_collection  # noqa: E402

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


def render_json(package: str) -> tuple[dict, str]:
    """`deckport render PACKAGE --json`: the object and the warnings."""
    result = deckport("render", package, "--json", "--verbose")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout), result.stderr


def names_of(renders: dict[int, dict]) -> dict[int, tuple]:
    """Each card's deck and note type, by card id, as `renders` (the backend's) names them."""
    return {card_id: (render["deck"], render["noteType"]) for card_id, render in renders.items()}


def assert_cards_are_ankis(package, theirs=None):
    """Every card of `package` is what the backend renders, with its note type's CSS, in the
    deck and of the note type the backend names: as `theirs` gives the backend's renders, or as
    an opening of the package gives them that names each card's deck and note type as deckport
    does (every opening, unless two decks or two note types of the package have one name: Anki
    then renames one, and which one differs from one opening to the next)."""
    ours, stderr = render_json(package)
    if theirs is None:
        named = {card["id"]: (card["deck"], card["noteType"]) for card in ours["cards"]}
        theirs = backend_renders(package)
        if names_of(theirs) != named:
            theirs = rendered_cards_of_opening(package, lambda renders: names_of(renders) == named) or theirs
    assert sorted(card["id"] for card in ours["cards"]) == sorted(theirs), "the same cards"
    # By id, not name: two note types may share a name.
    styling = {entry["noteTypeId"]: entry["css"] for entry in ours["styling"]}
    assert len(styling) == len(ours["styling"]), "one styling entry for each note type"
    for card in ours["cards"]:
        expected = theirs[card["id"]]
        where = f"card {card['id']} ({card['noteType']}, {card['template']})"
        if expected["deck"] is not None:
            assert card["deck"] == expected["deck"], f"{where}: deck"
        if expected["noteType"] is not None:
            assert card["noteType"] == expected["noteType"], f"{where}: note type"
        assert card["question"] == expected["question"], f"{where}: question"
        assert card["answer"] == expected["answer"], f"{where}: answer"
        problem = card.get("problem")
        if expected["error"]:
            assert problem and problem["kind"] == "template-error", where
            side = "question" if expected["question"].startswith("Front template") else "answer"
            assert problem["side"] == side, f"{where}: the side Anki names"
        elif expected["empty"]:
            assert problem and problem["kind"] in ("blank-front", "missing-cloze"), where
            assert styling[card["noteTypeId"]] == expected["css"], f"{where}: css"
        else:
            assert problem is None, f"{where}: {problem}"
            assert styling[card["noteTypeId"]] == expected["css"], f"{where}: css"
    # Every card the backend cannot render is named in a warning.
    for card_id, expected in theirs.items():
        if expected["error"] or expected["empty"]:
            assert f"card {card_id} " in stderr


@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_each_card_is_what_anki_renders(package):
    assert_cards_are_ankis(package)


def records(text: str) -> list[list[str]]:
    """The rows of a Cards in Plain Text file, read by Python's own CSV reader."""
    lines = [line for line in io.StringIO(text, newline="") if not line.startswith("#")]
    return list(csv.reader(lines, delimiter="\t"))


@pytest.mark.parametrize("with_html", [True, False], ids=["html", "plain"])
@pytest.mark.parametrize("package", PACKAGES, ids=IDS)
def test_cards_in_plain_text_are_ankis(package, with_html, tmp_path):
    assert_cards_in_plain_text_are_ankis(package, with_html, tmp_path)


def assert_cards_in_plain_text_are_ankis(package, with_html, tmp_path):
    """`convert --to cards` writes the backend's Cards in Plain Text of `package`."""
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


# Packages made here with the backend (see the module docstring).

NFC_NAME, NFD_NAME = "Na\u00efve", unicodedata.normalize("NFD", "Na\u00efve")
ANGSTROM, ANGSTROM_SIGN = "\u00c5ngstr\u00f6m", "\u212bngstr\u00f6m"
MARKS = ["\u0301", "\u200d", "\u0903", "\ufe0f"]


def new_note_type(col, name, fields, count, css=None):
    """A note type with `fields` and `count` templates whose fronts show the first field, so
    every note gets a card of each; the templates' real text is set afterwards (`set_templates`)."""
    mm = col.models
    model = mm.new(name)
    for field in fields:
        mm.add_field(model, mm.new_field(field))
    for index in range(count):
        template = mm.new_template(f"Card {index + 1}")
        template["qfmt"], template["afmt"] = "{{%s}}|%d" % (fields[0], index), "{{%s}}" % fields[0]
        mm.add_template(model, template)
    if css is not None:
        model["css"] = css
    mm.add_dict(model)
    return mm.by_name(name)


def add_note(col, model, deck_id, values):
    note = col.new_note(model)
    for key, value in values.items():
        note[key] = value
    col.add_note(note, deck_id)


def set_templates(col, name, templates):
    """Replaces the templates' text without Anki's checks, which refuse a name it cannot find."""
    model = col.models.by_name(name)
    for template, (front, back) in zip(model["tmpls"], templates):
        template["qfmt"], template["afmt"] = front, back
    col.models.update_dict(model, skip_checks=True)


def export(col, out, legacy):
    col.export_anki_package(
        out_path=str(out),
        options=ExportAnkiPackageOptions(legacy=legacy, with_scheduling=True, with_deck_configs=False, with_media=False),
        limit=None,
    )


def make_exact_bytes(out):
    """Templates Swift's `Character` and `==` would read otherwise than Anki's bytes."""
    folder = tempfile.mkdtemp()
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        deck = col.decks.id("Bytes")
        directive = [("{{=<% %>=}}" + mark + "<%Front%>", "{{Back}}") for mark in MARKS] + [
            (" \n{{=<% %>=}}{{=<% %>=}}\u0301<%Front%>|{{Front}}", "{{Back}}"),
            ("{{Front}}", "{{=<% %>=}}\u0301<%Back%>|<%FrontSide%>"),
            ("{{Front}}", "{{=<% %>=}}\u200d<%Back%>|{{Back}}"),
            ("{{Front}}\u0301|{{#Back}}\u0301s{{/Back}}\u0301", "{{tts \u0301en_US:Back}}"),
        ]
        new_note_type(col, "Directive before a mark", ["Front", "Back"], len(directive))
        names = [
            "{{G}}|{{%s}}" % NFD_NAME,
            "{{G}}|{{text:%s}}" % NFD_NAME,
            "{{G}}|{{#%s}}shown{{/%s}}" % (NFD_NAME, NFD_NAME),
            "{{G}}|{{^%s}}shown{{/%s}}" % (NFD_NAME, NFD_NAME),
            "{{G}}|{{#%s}}shown{{/%s}}" % (NFC_NAME, NFD_NAME),
            "{{G}}|{{%s}}" % ANGSTROM_SIGN,
            "{{G}}|{{%s}}|{{#%s}}s{{/%s}}|{{text:%s}}" % (NFC_NAME, NFC_NAME, NFC_NAME, ANGSTROM),
        ]
        new_note_type(col, "Names in another form", ["G", NFC_NAME, ANGSTROM], len(names))
        add_note(col, col.models.by_name("Directive before a mark"), deck, {"Front": "front", "Back": "back"})
        add_note(col, col.models.by_name("Names in another form"), deck, {"G": "g", NFC_NAME: "n", ANGSTROM: "a"})
        set_templates(col, "Directive before a mark", directive)
        set_templates(col, "Names in another form", [(front, "{{G}}") for front in names])
        export(col, out, legacy=False)
    finally:
        col.close()
        shutil.rmtree(folder)


# Deck names a legacy package may hold that Anki never stores (no two the same once stored:
# Anki's renaming of a taken name is another matter), and what the backend shows for each.
ODD_DECK_NAMES = ["  Spaced  ::  kid ", "A::::B", "::Lead", "Trail::", "", "x\x1fy", "\u00a0nb\u00a0::k", "tab\there",
                  unicodedata.normalize("NFD", "D\u00e9cor")]


def edited_legacy_package(out, fill, edit):
    """A legacy package the backend exports from a new collection `fill(col)` fills, whose
    collection's `decks` and `models` JSON objects `edit(decks, models)` then changes in place,
    as a package from another tool may hold them."""
    folder = tempfile.mkdtemp()
    source = os.path.join(folder, "source.apkg")
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        fill(col)
        export(col, source, legacy=True)
    finally:
        col.close()
    with zipfile.ZipFile(source) as archive:
        members = archive.namelist()
        archive.extractall(folder)
    with sqlite3.connect(os.path.join(folder, "collection.anki21")) as db:
        decks = json.loads(db.execute("select decks from col").fetchone()[0])
        models = json.loads(db.execute("select models from col").fetchone()[0])
        edit(decks, models)
        db.execute("update col set decks = ?, models = ?", (json.dumps(decks), json.dumps(models)))
    with zipfile.ZipFile(out, "w") as archive:
        for member in members:
            archive.write(os.path.join(folder, member), member)
    shutil.rmtree(folder)



@pytest.mark.parametrize("extension", ["apkg", "colpkg"])
def test_a_package_deckport_writes_keeps_note_types_of_one_name_apart(built, tmp_path, extension):
    """Two note types of one name (`Twin`), which Anki renames one of at each opening, a different
    one from one opening to the next: `convert` writes the later as Anki names it when it renames
    it (`Twin_`) and says so; every opening by the backend of what deckport wrote names each
    card's note type as deckport's render of the original does, and renders it as then."""
    out = str(tmp_path / f"written.{extension}")
    result = deckport("convert", built["duplicate_names"], out)
    assert result.returncode == 0, result.stderr
    assert "[note-type-renamed]" in result.stderr and "this one is written as 'Twin_'" in result.stderr
    ours, _ = render_json(built["duplicate_names"])
    note_types = {card["id"]: card["noteType"] for card in ours["cards"]}
    assert sorted(set(note_types.values())) == ["Kinds", "Twin", "Twin_"]
    questions = {card["id"]: card["question"] for card in ours["cards"] if card["noteType"].startswith("Twin")}
    for _ in range(6):
        renders = rendered_cards(out)
        assert {card_id: render["noteType"] for card_id, render in renders.items()} == note_types
        # A twin's front shows its own note type's name ({{Type}}), as deckport showed it.
        assert {card_id: renders[card_id]["question"] for card_id in questions} == questions

def add_twins(col, templates=None):
    """Note types `Twin A` and `Twin B` (red and blue), a note of each in deck `Twins`; both are
    named `Twin` by `name_twins`."""
    for name, color in [("Twin A", "red"), ("Twin B", "blue")]:
        twin = new_note_type(col, name, ["F"], 1, css=".card { color: %s; }" % color)
        add_note(col, twin, col.decks.id("Twins"), {"F": name})
        if templates:
            set_templates(col, name, templates)


def name_twins(models):
    for model in models.values():
        if model["name"].startswith("Twin "):
            model["name"] = "Twin"


def make_legacy_names(out):
    """A legacy package whose collection's JSON is edited to hold odd deck names and two note
    types of one name, as a package from another tool may."""
    def fill(col):
        decks = new_note_type(col, "Deck names", ["F"], 1)
        for index in range(len(ODD_DECK_NAMES)):
            add_note(col, decks, col.decks.id(f"D{index}"), {"F": f"n{index}"})
        set_templates(col, "Deck names", [("{{F}}|{{Deck}}|{{Subdeck}}", "{{Deck}}::{{Subdeck}}")])
        add_twins(col)

    def edit(decks, models):
        for deck in decks.values():
            if deck["name"][:1] == "D" and deck["name"][1:].isdigit():
                deck["name"] = ODD_DECK_NAMES[int(deck["name"][1:])]
        name_twins(models)

    edited_legacy_package(out, fill, edit)


# Names Anki takes for one (ignoring case, after NFC) in a legacy collection: Anki renames the
# later of two such fields or templates of a note type with `+`, always the same; of two decks
# or two note types, one with `_`, and which one differs from one opening to the next.
NFD_FIELD = unicodedata.normalize("NFD", "Na\u00efve")
FIELDS_STORED = ["dup", "Dup", "Other", "Na\u00efve", NFD_FIELD]
TEMPLATES_STORED = ["Card", "card", "CARD"]
# What Anki names them once it has opened the collection.
FIELDS_OPENED = ["dup", "Dup+", "Other", "Na\u00efve", "Na\u00efve+"]
TEMPLATES_OPENED = ["Card", "card+", "CARD++"]
# Each template's back: a field by the name the file holds (no field of that name once Anki has
# renamed it), by the name Anki gives it, and another field.
BACKS = ["{{Dup}}", "{{Dup+}}|{{Na\u00efve+}}", "{{Other}}"]


def make_duplicate_names(out, decks_and_note_types=True):
    """A legacy package whose collection's JSON is edited to hold two fields and two templates
    of one note type whose names Anki takes for one, and (with `decks_and_note_types`) two decks
    (`alpha`, `ALPHA`, the first with a subdeck) and two note types (`Twin`) so named."""
    def fill(col):
        kinds = new_note_type(col, "Kinds", ["f%d" % index for index in range(len(FIELDS_STORED))],
                              len(TEMPLATES_STORED))
        deck_names = ["alpha", "ALPHA2", "alpha::kid"] if decks_and_note_types else ["Fields"]
        for name in deck_names:
            add_note(col, kinds, col.decks.id(name), {"f0": "d " + name, "f1": "D", "f2": "o", "f3": "n1", "f4": "n2"})
        if decks_and_note_types:
            add_twins(col, [("{{F}}|{{Type}}|{{Deck}}", "{{Type}}")])
        set_templates(col, "Kinds", [
            ("%d|{{dup}}|{{Deck}}|{{Subdeck}}|{{Type}}|{{Card}}" % index, back) for index, back in enumerate(BACKS)])

    def edit(decks, models):
        for deck in decks.values():
            if deck["name"] == "ALPHA2":
                deck["name"] = "ALPHA"
        name_twins(models)
        for model in models.values():
            if model["name"] == "Kinds":
                for field, name in zip(model["flds"], FIELDS_STORED):
                    field["name"] = name
                for template, name in zip(model["tmpls"], TEMPLATES_STORED):
                    template["name"] = name

    edited_legacy_package(out, fill, edit)


def make_duplicate_fields(out):
    """`make_duplicate_names` with its fields and templates alone: what every opening renames
    the same way."""
    make_duplicate_names(out, decks_and_note_types=False)


BUILT = {"exact_bytes": make_exact_bytes, "legacy_names": make_legacy_names, "duplicate_fields": make_duplicate_fields}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each of `BUILT`'s packages, and `duplicate_names`, made once."""
    folder = tmp_path_factory.mktemp("rendering")
    paths = {}
    for name, make in {**BUILT, "duplicate_names": make_duplicate_names}.items():
        paths[name] = str(folder / f"{name}.apkg")
        make(paths[name])
    return paths


@pytest.mark.parametrize("name", list(BUILT))
def test_each_card_of_a_built_package_is_what_anki_renders(built, name):
    assert_cards_are_ankis(built[name])


@pytest.mark.parametrize("with_html", [True, False], ids=["html", "plain"])
@pytest.mark.parametrize("name", list(BUILT))
def test_cards_in_plain_text_of_a_built_package_are_ankis(built, name, with_html, tmp_path):
    assert_cards_in_plain_text_are_ankis(built[name], with_html, tmp_path)


def test_built_packages_hold_the_cases(built):
    """The packages hold what they are for: Anki renders the directive after a mark, finds no
    field of a name in another form, shows each deck's stored name, and two note types of one
    name (each with its own CSS) have one card each."""
    exact = backend_renders(built["exact_bytes"])
    questions = [render["question"] for render in exact.values()]
    for mark in MARKS:
        assert mark + "front" in questions
    errors = [render["question"] for render in exact.values() if render["error"]]
    assert any(f"there is no field called &#x27;\u2068{NFD_NAME}\u2069" in error for error in errors)
    assert any(f"there is no field called &#x27;\u2068{ANGSTROM_SIGN}\u2069" in error for error in errors)
    named = backend_renders(built["legacy_names"])
    shown = {render["question"] for render in named.values()}
    assert {"n0|Spaced::kid|kid", "n1|A::blank::B|B", "n5|xy|xy", "n8|D\u00e9cor|D\u00e9cor"} <= shown
    ours = json.loads(deckport("render", built["legacy_names"], "--json").stdout)
    twins = [entry for entry in ours["styling"] if entry["noteType"] in ("Twin", "Twin_")]
    assert sorted(entry["css"] for entry in twins) == [".card { color: blue; }", ".card { color: red; }"]


def test_a_legacy_package_with_names_anki_takes_for_one_renders_as_anki_renders_it(built):
    """Of two decks and two note types of one name, Anki renames one when it opens the collection,
    a different one from one opening to the next: deckport's render is the backend's in an
    opening that renamed the ones deckport names renamed (every opening renames one of each
    pair; one in four is that one), and render warns of each it chose."""
    package = built["duplicate_names"]
    ours, stderr = render_json(package)
    named = {card["id"]: (card["deck"], card["noteType"]) for card in ours["cards"]}
    assert sorted(set(named.values())) == [
        ("ALPHA_", "Kinds"), ("Twins", "Twin"), ("Twins", "Twin_"), ("alpha", "Kinds"), ("alpha::kid", "Kinds")]
    theirs = rendered_cards_of_opening(package, lambda renders: names_of(renders) == named)
    assert theirs is not None, "no opening of 60 renamed the deck and note type deckport renames"
    assert_cards_are_ankis(package, theirs)
    shown = sorted(render["question"] for render in theirs.values() if not render["error"])
    assert "1|d ALPHA2|ALPHA_|ALPHA_|Kinds|card+" in shown and "Twin B|Twin_|Twins" in shown
    assert "[deck-renamed]" in stderr and "this one is shown as 'ALPHA_'" in stderr
    assert "[note-type-renamed]" in stderr and "this one is shown as 'Twin_'" in stderr


def test_anki_renames_fields_and_templates_the_same_way_every_time(built):
    """What the packages hold: every opening names the fields and templates as FIELDS_OPENED and
    TEMPLATES_OPENED say (the later of two gets `+`), so a back naming `{{Dup}}` finds no field,
    and deckport reads them so, naming each renamed one in a warning."""
    for _ in range(3):
        with restored_collection(built["duplicate_names"]) as col:
            kinds = col.models.by_name("Kinds")
            assert [field["name"] for field in kinds["flds"]] == FIELDS_OPENED
            assert [template["name"] for template in kinds["tmpls"]] == TEMPLATES_OPENED
    renders = backend_renders(built["duplicate_fields"])
    assert sum(render["error"] for render in renders.values()) == 1, "one card, whose back names {{Dup}}"
    result = deckport("inspect", built["duplicate_fields"], "--json")
    assert result.returncode == 0, result.stderr
    kinds = [note_type for note_type in json.loads(result.stdout)["noteTypes"] if note_type["name"] == "Kinds"]
    assert kinds[0]["fields"] == FIELDS_OPENED and kinds[0]["templates"] == TEMPLATES_OPENED
    for message in [
        "[field-renamed] field 2, 'Dup', is renamed 'Dup+'",
        # The NFD name is shown with its combining mark visible (MediaFileName.visible).
        "[field-renamed] field 5, 'Nai\\u{308}ve', is renamed 'Na\u00efve+'",
        "[template-renamed] card template 2, 'card', is renamed 'card+'",
        "[template-renamed] card template 3, 'CARD', is renamed 'CARD++'",
    ]:
        assert message in result.stderr


def test_a_package_deckport_writes_from_it_renders_as_the_original(built, tmp_path):
    """`convert` to a deck package writes the names as Anki gives them, without refusing the
    names the file holds; the backend renders every card of what deckport wrote as it renders
    the original."""
    out = str(tmp_path / "written.apkg")
    result = deckport("convert", built["duplicate_fields"], out)
    assert result.returncode == 0, result.stderr
    original = backend_renders(built["duplicate_fields"])
    written = rendered_cards(out)
    assert sorted(written) == sorted(original)
    for card_id, render in original.items():
        assert (written[card_id]["question"], written[card_id]["answer"]) == (render["question"], render["answer"])
