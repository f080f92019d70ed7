"""Values Anki's import of a package changes or drops without a word, judged by the real backend.

Each case starts from the legacy fixture with one thing changed by SQL (made here, independently
of deckport's code), shows what Anki's import does with that source itself, and then checks that
deckport's package of it either keeps the value or carries a warning naming the item, that the
warning says what Anki holds after importing deckport's package, and that `--strict` fails.
"""

from __future__ import annotations

import os
import time

import pytest

from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from test_duplicate_guids_and_extreme_values import FIRST, SECOND, altered, restored  # noqa: E402

DECK_FORMATS = ["apkg", "apkg-modern"]
COLLECTION_FORMATS = ["colpkg", "colpkg-modern"]


def converted(source: str, folder, fmt: str, *options: str) -> tuple[str, str]:
    """(the path of deckport's `fmt` package of `source`, its standard error); the conversion
    must succeed."""
    out = str(folder / f"out-{fmt}.{'colpkg' if fmt.startswith('colpkg') else 'apkg'}")
    result = deckport("convert", source, out, "--to", fmt, "--force", "-v", *options)
    assert result.returncode == 0, result.stderr
    return out, result.stderr


def strict_fails(source: str, folder, fmt: str, category: str) -> None:
    """`--strict` refuses to write `fmt` from `source`, naming `category`."""
    out = str(folder / f"strict-{fmt}.pkg")
    result = deckport("convert", source, out, "--to", fmt, "--strict")
    assert result.returncode == 1 and f"[{category}]" in result.stderr, result.stderr
    assert not os.path.exists(out)


def warnings_of(stderr: str, category: str) -> list[str]:
    return [line for line in stderr.splitlines() if f"warning: [{category}]" in line]


def first_fields(folder, package: str) -> dict[int, str]:
    """The first field of every note, by note id, in a fresh collection `package` went into."""
    col = restored(str(folder), package)
    try:
        return {nid: flds.split("\x1f")[0] for nid, flds in col.db.all("select id, flds from notes")}
    finally:
        col.close()


# --------------------------------------------------------------------------------------------
# 1. Control characters in fields

REMOVED = [c for c in range(1, 0x1F) if c not in (0x09, 0x0A)] + [0x7F]
KEPT = [0x09, 0x0A] + list(range(0x80, 0xA0))


def sql_text(codes: list[int]) -> str:
    return " || ".join(f"char({code})" for code in codes)


@pytest.fixture()
def control_characters(tmp_path) -> str:
    """The fixture with every ASCII control character but NUL and U+001F in FIRST's front, a
    Windows line break in SECOND's, and the C1 controls, tab and line feed in a third note's."""
    return altered(
        str(tmp_path),
        f"UPDATE notes SET flds = 'a' || {sql_text(REMOVED)} || 'b' || char(31) || 'x' WHERE id = {FIRST};"
        f"UPDATE notes SET flds = 'line1' || char(13) || char(10) || 'line2' || char(31) || 'x' WHERE id = {SECOND};"
        f"UPDATE notes SET flds = 'k' || {sql_text(KEPT)} || char(31) || 'x' || char(31) WHERE id = 1795331276849;",
    )


def test_anki_package_import_removes_exactly_these_control_characters(control_characters, tmp_path):
    fields = first_fields(tmp_path, control_characters)
    assert fields[FIRST] == "ab"
    assert fields[SECOND] == "line1\nline2"
    assert fields[1795331276849] == "k" + "".join(map(chr, KEPT))


@pytest.mark.parametrize("fmt", DECK_FORMATS)
def test_deck_package_is_written_without_them_with_one_warning(control_characters, tmp_path, fmt):
    out, stderr = converted(control_characters, tmp_path, fmt)
    warned = warnings_of(stderr, "field-changed")
    assert len(warned) == 1, stderr
    assert f"note {FIRST}: warning: [field-changed] 2 notes (notes {FIRST}, {SECOND}) hold control characters" in warned[0]
    assert "U+000D carriage return ×2" in warned[0] and "U+007F delete ×1" in warned[0] and "U+0001 ×1" in warned[0]
    assert "U+0009" not in warned[0] and "U+000A" not in warned[0] and "U+0080" not in warned[0]
    # What deckport wrote is what Anki holds after importing it, and after importing the source.
    assert first_fields(tmp_path, out) == first_fields(tmp_path, control_characters)
    strict_fails(control_characters, tmp_path, fmt, "field-changed")


@pytest.mark.parametrize("fmt", COLLECTION_FORMATS)
def test_collection_package_keeps_them(control_characters, tmp_path, fmt):
    out, stderr = converted(control_characters, tmp_path, fmt)
    assert not warnings_of(stderr, "field-changed"), stderr
    fields = first_fields(tmp_path, out)
    assert fields[FIRST] == "a" + "".join(map(chr, REMOVED)) + "b"
    assert fields[SECOND] == "line1\r\nline2"


# --------------------------------------------------------------------------------------------
# 2. Two cards of one note with one template ordinal

CLOZE_NOTE = 1795331276851  # its cards: 1795331276853 (ord 2), ...854 (ord 0), ...855 (ord 1)
CLOZE_FIRST, CLOZE_SECOND = 1795331276854, 1795331276855


def test_anki_keeps_one_card_per_note_and_template(tmp_path):
    """Anki imports both cards of one note and ordinal, and its Check Database deletes one."""
    source = altered(str(tmp_path), f"UPDATE cards SET ord = 0 WHERE id = {CLOZE_SECOND}")
    col = restored(str(tmp_path), source)
    try:
        assert col.db.list(f"select ord from cards where nid = {CLOZE_NOTE} order by id") == [2, 0, 0]
        col.fix_integrity()
        assert len(col.db.list(f"select id from cards where nid = {CLOZE_NOTE} and ord = 0")) == 1
    finally:
        col.close()


@pytest.mark.parametrize("fmt", DECK_FORMATS + COLLECTION_FORMATS)
@pytest.mark.parametrize(
    "ordinals,clamped",
    [((0, 0), ""), ((65535, 65536), f"card {CLOZE_SECOND}'s ord 65536 is outside the range Anki reads and is written as 65535")],
)
def test_two_cards_of_one_ordinal_are_refused(tmp_path, fmt, ordinals, clamped):
    """deckport refuses, naming the note and both cards (and the clamping that made them meet)."""
    source = altered(
        str(tmp_path),
        f"UPDATE cards SET ord = {ordinals[0]} WHERE id = {CLOZE_FIRST};"
        f"UPDATE cards SET ord = {ordinals[1]} WHERE id = {CLOZE_SECOND};",
    )
    out = str(tmp_path / "out.pkg")
    result = deckport("convert", source, out, "--to", fmt)
    assert result.returncode == 1, result.stderr
    assert (
        f"note {CLOZE_NOTE}, cards {CLOZE_FIRST} and {CLOZE_SECOND}: cards {CLOZE_FIRST} and {CLOZE_SECOND} of note"
        f" {CLOZE_NOTE} both have template ordinal {ordinals[0]}"
    ) in result.stderr
    assert clamped in result.stderr
    assert not os.path.exists(out)


# --------------------------------------------------------------------------------------------
# 3. Tags: empty levels, NFC, spellings that differ only in case

THIRD, FOURTH = 1795331276847, 1795331276848
TAGS = {
    FIRST: ["::", "lang::", "::verbs", "lang::::verbs", "Verb", "verb"],
    SECOND: ["Straße", "x::Y", "Tip"],
    THIRD: ["STRASSE", "X::y::z", "ﬁ"],
    # The capital sharp s folds to ss, as ß does; the dotless ı folds to itself.
    FOURTH: ["e\u0301", "Q::STRASSE", "FI", "STRA\u1e9eE::x", "T\u0131p"],
}
# As Anki's import of a package stores them (notes in id order; the first spelling met wins).
STORED = {
    FIRST: ["blank::blank", "blank::verbs", "lang::blank", "lang::blank::verbs", "Verb"],
    SECOND: ["Straße", "x::Y", "Tip"],
    THIRD: ["Straße", "x::Y::z", "ﬁ"],
    FOURTH: ["Q::STRASSE", "ﬁ", "\u00e9", "Straße::x", "T\u0131p"],
}


def note_tags(folder, package: str) -> dict[int, list[str]]:
    """The sorted tags of the notes of TAGS in a fresh collection `package` went into."""
    col = restored(str(folder), package)
    try:
        return {nid: sorted(col.db.scalar(f"select tags from notes where id = {nid}").split()) for nid in TAGS}
    finally:
        col.close()


@pytest.fixture()
def tagged(tmp_path) -> str:
    sql = "".join(
        f"UPDATE notes SET tags = ' {' '.join(tags)} ' WHERE id = {nid};" for nid, tags in TAGS.items()
    )
    return altered(str(tmp_path), sql)


def test_anki_package_import_stores_tags_so(tagged, tmp_path):
    assert note_tags(tmp_path, tagged) == {nid: sorted(tags) for nid, tags in STORED.items()}


@pytest.mark.parametrize("fmt", DECK_FORMATS)
def test_deck_package_holds_the_tags_anki_stores_and_says_so(tagged, tmp_path, fmt):
    out, stderr = converted(tagged, tmp_path, fmt)
    warned = warnings_of(stderr, "tag-changed")
    expected = [
        (FIRST, "tag '::' is written as 'blank::blank'"),
        (FIRST, "tag 'lang::::verbs' is written as 'lang::blank::verbs'"),
        (FIRST, "tag 'verb' is the tag 'Verb' for Anki, which the note has already"),
        (THIRD, f"tag 'STRASSE' is written as 'Straße', as Anki's import stores it (Anki spells it as the tag 'Straße' it meets first (note {SECOND})"),
        (THIRD, "tag 'X::y::z' is written as 'x::Y::z'"),
        (FOURTH, "tag 'FI' is written as 'ﬁ'"),
        (FOURTH, "(Anki brings tags into Unicode NFC)"),
        (FOURTH, "tag 'STRA\u1e9eE::x' is written as 'Straße::x'"),
    ]
    for nid, text in expected:
        assert any(f"note {nid}: warning: [tag-changed] " in line and text in line for line in warned), (text, stderr)
    # Five of FIRST's tags; STRASSE, X::y::z; FI, e + U+0301, STRAẞE::x (Tıp is its own tag).
    assert len(warned) == 10, stderr
    # The package holds the tags as Anki stores them, and Anki changes none of them.
    assert note_tags(tmp_path, out) == note_tags(tmp_path, tagged)
    strict_fails(tagged, tmp_path, fmt, "tag-changed")


@pytest.mark.parametrize("fmt", COLLECTION_FORMATS)
def test_collection_package_keeps_the_tags(tagged, tmp_path, fmt):
    out, stderr = converted(tagged, tmp_path, fmt)
    assert not warnings_of(stderr, "tag-changed"), stderr
    assert note_tags(tmp_path, out) == {nid: sorted(tags) for nid, tags in TAGS.items()}


# --------------------------------------------------------------------------------------------
# 6. Deck names that are one under full Unicode case folding

FRENCH, VERBS = 1795331276841, 1795331276842


@pytest.fixture()
def folded_decks(tmp_path) -> str:
    """The fixture with decks 'Languages::Straße' and 'Languages::STRASSE' (once French and its
    subdeck Verbs)."""
    return altered(
        str(tmp_path),
        f"UPDATE col SET decks = json_set(decks, '$.\"{FRENCH}\".name', 'Languages::Straße',"
        f" '$.\"{VERBS}\".name', 'Languages::STRASSE');",
    )


def deck_names(folder, package: str) -> list[str]:
    col = restored(str(folder), package)
    try:
        return sorted(entry.name for entry in col.decks.all_names_and_ids() if entry.name.startswith("Languages"))
    finally:
        col.close()


def test_anki_matches_deck_names_by_full_case_folding(folded_decks, tmp_path):
    names = deck_names(tmp_path, folded_decks)
    assert len(names) == 3 and any(name.endswith("_") for name in names), names


@pytest.mark.parametrize("fmt", DECK_FORMATS + COLLECTION_FORMATS)
def test_decks_one_under_case_folding_are_merged_with_a_warning(folded_decks, tmp_path, fmt):
    out, stderr = converted(folded_decks, tmp_path, fmt)
    warned = warnings_of(stderr, "decks-merged")
    assert len(warned) == 1 and f"deck 'Languages::STRASSE' (id {VERBS}): warning: [decks-merged] deck {FRENCH}" in warned[0], stderr
    assert deck_names(tmp_path, out) == ["Languages", "Languages::Straße"]
    strict_fails(folded_decks, tmp_path, fmt, "decks-merged")


# --------------------------------------------------------------------------------------------
# 5. Reviews made in the future

REVIEWS = [1795331276887, 1795331276890, 1795331276897]
DAY_MS = 86_400_000


def test_future_reviews_are_named(tmp_path):
    """Anki's import keeps a review 23 hours ahead and replaces the time of one 25 hours ahead
    (and of one at 2030, and at Int64.max) with the import time; deckport names the latter."""
    now = int(time.time() * 1000)
    ahead = {REVIEWS[0]: now + 23 * 3_600_000, REVIEWS[1]: now + 25 * 3_600_000, REVIEWS[2]: 2**63 - 1}
    source = altered(
        str(tmp_path), "".join(f"UPDATE revlog SET id = {new} WHERE id = {old};" for old, new in ahead.items())
    )
    col = restored(str(tmp_path), source)
    try:
        ids = set(col.db.list("select id from revlog"))
        assert ahead[REVIEWS[0]] in ids and ahead[REVIEWS[1]] not in ids and ahead[REVIEWS[2]] not in ids
        assert all(i < time.time() * 1000 + DAY_MS for i in ids)
    finally:
        col.close()
    for fmt in DECK_FORMATS:
        _, stderr = converted(source, tmp_path, fmt)
        warned = [line for line in warnings_of(stderr, "future-time") if "review" in line]
        assert len(warned) == 1, stderr
        assert f"review {ahead[REVIEWS[1]]}: warning: [future-time] 2 reviews (reviews {ahead[REVIEWS[1]]}, {2**63 - 1})" in warned[0]
        strict_fails(source, tmp_path, fmt, "future-time")


# --------------------------------------------------------------------------------------------
# 7. Field text not in Unicode NFC


@pytest.fixture()
def decomposed(tmp_path) -> str:
    """The fixture with FIRST's front a decomposed `café` (e and U+0301)."""
    return altered(str(tmp_path), f"UPDATE notes SET flds = 'cafe' || char(769) || char(31) || 'x' WHERE id = {FIRST};")


def test_anki_package_import_composes_field_text(decomposed, tmp_path):
    assert first_fields(tmp_path, decomposed)[FIRST] == "caf\u00e9"


@pytest.mark.parametrize("fmt", DECK_FORMATS)
def test_deck_package_is_written_composed_with_one_warning(decomposed, tmp_path, fmt):
    out, stderr = converted(decomposed, tmp_path, fmt)
    warned = warnings_of(stderr, "field-changed")
    assert len(warned) == 1 and f"note {FIRST}: warning: [field-changed] 1 note (note {FIRST}) holds text not in Unicode NFC" in warned[0], stderr
    assert first_fields(tmp_path, out)[FIRST] == "caf\u00e9"
    strict_fails(decomposed, tmp_path, fmt, "field-changed")


@pytest.mark.parametrize("fmt", COLLECTION_FORMATS)
def test_collection_package_keeps_field_text_as_it_is(decomposed, tmp_path, fmt):
    out, stderr = converted(decomposed, tmp_path, fmt)
    assert not warnings_of(stderr, "field-changed"), stderr
    assert first_fields(tmp_path, out)[FIRST] == "cafe\u0301"


# --------------------------------------------------------------------------------------------
# 8. A card's data beside its schedule

CARD_DATA = [
    '{"pos":-1}', '{"pos":5,"x":1}', '{"s":1e308,"d":5.0,"dr":0.9}', "NaN", '{"s":NaN,"d":5}', '{"s":1e-320,"d":5}',
    '{"s":"x","d":5}', '{"pos":1e20}', '{"pos":4294967296}', '{"pos":4294967295}', '{"lrt":-5}', '{"s":3.4e38}',
    '"str"', '{"cd":"abc"}', '{"decay":2}', '{"s":1.5}', '{"pos":3.0}', '{"pos":"3"}', '{"pos":3,"s":1.5}',
    '{"s":1.5,"d":5}', '{"dr":0.9}', '{"pos":3,"x":1,"cd":"q"}', '{"s":1.5,"d":5,"lrt":1.5}', '{"pos":null}', "{}",
    '{"dr":1e300}', '{"decay":1e300}', '{"dr":1e-50}', '{"dr":0.875}', '{"s":1.123456789012,"d":5}',
    '{"s":1.5,"d":5.123456}', '{"decay":0.123456789}', '{"pos":3,"pos":4}', '{"s":1.5,"d":5,"s":2}',
    '{"s":12.3456,"d":7.123,"dr":0.95,"decay":0.154}',
]


def meaning(data: str):
    """A card's data as a value ("" as {}), numbers compared as numbers; None for what is no JSON."""
    import json

    if data == "":
        return {}
    try:
        return json.loads(data, parse_constant=lambda constant: constant)
    except ValueError:
        return None


def same_meaning(a, b) -> bool:
    """Whether two card data values mean the same: equal, numbers within a 32-bit float's
    precision (Anki holds 0.9 as 0.899999976 and writes it 0.9 again)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_meaning(a[key], b[key]) for key in a)
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b) <= 1e-6 * max(abs(a), abs(b))
    return a == b


@pytest.mark.parametrize("data", CARD_DATA)
def test_card_data_anki_changes_is_said_exactly_where_it_changes(data, tmp_path):
    """[card-data-changed] is given exactly when the backend's import of deckport's .apkg holds a
    card's data with another meaning than the source's (a key left out, a number become null or
    0), and `--strict` then fails; the package holds the data as the source has it."""
    sql = "UPDATE cards SET data = '%s' WHERE id = (SELECT min(id) FROM cards);" % data.replace("'", "''")
    source = altered(str(tmp_path), sql)
    out, stderr = converted(source, tmp_path, "apkg")
    (tmp_path / "imported").mkdir()
    col = restored(str(tmp_path / "imported"), out)
    try:
        held = col.db.scalar("select data from cards where id = (select min(id) from cards)")
    finally:
        col.close()
    changes = not same_meaning(meaning(held), meaning(data))
    assert bool(warnings_of(stderr, "card-data-changed")) == changes, (data, held, stderr)
    if changes:
        strict_fails(source, tmp_path, "apkg", "card-data-changed")
