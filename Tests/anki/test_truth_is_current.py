"""The committed truth files are proven, not trusted: for every fixture package, import it
with the live real Anki backend (fixtures/anki_view.py) and compare with P.truth.json."""

from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import PACKAGE_DIR, fixture_packages, truth_path

PACKAGES = fixture_packages()


def test_there_are_fixture_packages():
    names = {os.path.basename(p) for p in PACKAGES}
    expected = {
        "legacy1.apkg",
        "legacy2_sched.apkg",
        "legacy2_nosched.apkg",
        "legacy2_nometa.apkg",
        "latest_sched.apkg",
        "latest_nosched.apkg",
        "legacy.colpkg",
        "latest.colpkg",
        "genanki_legacy1.apkg",
    }
    assert expected <= names, f"missing fixture packages: {sorted(expected - names)}"


def test_every_truth_file_has_its_package():
    for truth in glob.glob(os.path.join(PACKAGE_DIR, "*.truth.json")):
        package = truth[: -len(".truth.json")]
        assert os.path.exists(package), f"orphan truth file {os.path.basename(truth)}"


def _differences(expected, actual, path="$", out=None, limit=20):
    out = [] if out is None else out
    if len(out) >= limit:
        return out
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                out.append(f"{path}.{key}: missing from the live view")
            elif key not in expected:
                out.append(f"{path}.{key}: not in the truth file")
            else:
                _differences(expected[key], actual[key], f"{path}.{key}", out, limit)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append(f"{path}: length {len(expected)} in the truth, {len(actual)} live")
        for i, (e, a) in enumerate(zip(expected, actual)):
            _differences(e, a, f"{path}[{i}]", out, limit)
    elif expected != actual:
        out.append(f"{path}: truth {expected!r}, live {actual!r}")
    return out


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_truth_is_current(package, live_view):
    truth = truth_path(package)
    assert os.path.exists(truth), (
        f"{os.path.basename(truth)} is missing; run: python fixtures/make_fixtures.py"
    )
    with open(truth, encoding="utf-8") as handle:
        expected = json.load(handle)
    # Round-trip through JSON so that the comparison is between the same kinds of values.
    actual = json.loads(json.dumps(live_view(package), ensure_ascii=False))
    if actual != expected:
        diffs = "\n".join(_differences(expected, actual))
        pytest.fail(
            f"{os.path.basename(package)}: the real backend no longer sees what "
            f"{os.path.basename(truth)} says:\n{diffs}"
        )


@pytest.mark.parametrize("package", PACKAGES, ids=os.path.basename)
def test_truth_never_shows_the_dummy_note(package):
    from anki_view import DUMMY_NOTE_MARKER

    with open(truth_path(package), encoding="utf-8") as handle:
        truth = json.load(handle)
    for note in truth["notes"]:
        assert not any(DUMMY_NOTE_MARKER in field for field in note["fields"]), (
            f"{os.path.basename(package)}: the truth holds the dummy 'Please update' note"
        )
