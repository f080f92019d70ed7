"""`-0` in the JSON of a package's option groups, read as Anki's Rust backend (serde) reads it: a
float, not the integer 0.

Where Anki reads a whole number, a float makes its import refuse the package (`maxTaken`: an
`i32`; `answerAction`: a `u8`), or, in an option group's `rev` settings, reset every one of them
to its default. Each case starts from the backend's own legacy fixture with one setting set to
`-0` by SQL (independently of deckport's code) and shows what the backend does with it; deckport's
package of it must import, with a `value-clamped` warning naming the setting as `-0`, and
`--strict` must fail. Before, deckport read `-0` as 0: it wrote packages of what Anki would
refuse without a word, and said `maxTaken` "is 0".
"""

from __future__ import annotations

import json

import pytest

from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

from test_duplicate_guids_and_extreme_values import restored  # noqa: E402
from test_json_values_anki_refuses import SOURCE, default_group, with_collection_json_changed  # noqa: E402

PLACEHOLDER = "\u0000placeholder"


def minus_zero(path: str):
    """The change that sets the Default option group's setting `path` (`rev.maxIvl`) to `-0`."""

    def change(groups: dict) -> str:
        inner = groups["1"]
        *objects, last = path.split(".")
        for key in objects:
            inner = inner[key]
        inner[last] = PLACEHOLDER
        return json.dumps(groups).replace(json.dumps(PLACEHOLDER), "-0")

    return change


@pytest.mark.parametrize(
    ("path", "refusal"),
    [
        ("maxTaken", "invalid type: floating point `-0.0`, expected i32"),
        ("answerAction", "invalid type: floating point `-0.0`, expected u8"),
    ],
)
@pytest.mark.parametrize("fmt", ["apkg", "colpkg"])
def test_a_whole_number_setting_of_minus_zero_that_anki_refuses_is_written_as_one_it_reads(tmp_path, path, refusal, fmt):
    source = str(tmp_path / "source.apkg")
    with_collection_json_changed(SOURCE, source, str(tmp_path), minus_zero(path))
    with pytest.raises(Exception, match=refusal.replace("`", ".").replace("(", ".")):
        restored(str(tmp_path), source).close()
    out = str(tmp_path / f"out.{fmt}")
    result = deckport("convert", source, out)
    assert result.returncode == 0, result.stderr
    assert f"[value-clamped] setting '{path}' is -0" in result.stderr, result.stderr
    col = restored(str(tmp_path), out)
    try:
        assert col.note_count() == 9
    finally:
        col.close()
    strict = deckport("convert", source, str(tmp_path / f"strict.{fmt}"), "--strict")
    assert strict.returncode == 1 and "value-clamped" in strict.stderr


def test_a_review_setting_of_minus_zero_resets_the_review_settings_and_is_said(tmp_path):
    """Anki reads `rev.maxIvl: -0` as no whole number and resets every review setting (its review
    limit of 123 too) to its defaults; deckport says so, naming `-0`, and writes a value Anki
    reads, keeping the group's other review settings."""
    source = str(tmp_path / "source.apkg")

    def change(groups: dict) -> str:
        groups["1"]["rev"]["perDay"] = 123
        return minus_zero("rev.maxIvl")(groups)

    with_collection_json_changed(SOURCE, source, str(tmp_path), change)
    col = restored(str(tmp_path), source)
    try:
        assert default_group(col)["rev"]["perDay"] == 200 and default_group(col)["rev"]["maxIvl"] == 36500
    finally:
        col.close()
    out = str(tmp_path / "out.colpkg")
    result = deckport("convert", source, out)
    assert result.returncode == 0, result.stderr
    assert "setting 'rev.maxIvl' is -0, which Anki cannot read there" in result.stderr, result.stderr
    col = restored(str(tmp_path), out)
    try:
        assert default_group(col)["rev"]["perDay"] == 123
    finally:
        col.close()
