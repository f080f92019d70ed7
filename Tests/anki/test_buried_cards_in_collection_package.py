"""Buried cards in a collection package written from a deck package, judged by the real backend.

A deck package holds no `lastUnburied` setting (the day Anki last released buried cards on).
Found by a scheduling hunt: deckport's `.colpkg` written from an `.apkg` had none either, so
Anki's restore released every buried card as it opened the collection: a card buried by the
user, or with its sibling, came back to today's study at once, and the deck counts changed.
Anki's own import of the `.apkg` keeps them buried, and so does its restore of its own `.colpkg`
of the same collection, which is the truth here: deckport's `.colpkg` must restore the same
queues and the same counts for today.
"""

from __future__ import annotations

import os

import pytest
from anki.collection import Collection, ExportAnkiPackageOptions

from anki_view import _import_colpkg
from test_csv_helpers import deckport, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)


@pytest.fixture(scope="module")
def packages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("buried")
    col = Collection(str(folder / "collection.anki2"))
    try:
        # A collection made some days ago: on its first day, Anki has no earlier day to release on.
        col.db.execute("update col set crt = crt - 5 * 86400")
        col.close()
        col = Collection(str(folder / "collection.anki2"))
        assert col.sched.today == 5
        reversed_type = col.models.by_name("Basic (and reversed card)")
        deck = col.decks.id("Buried")
        for index in range(4):
            note = col.new_note(reversed_type)
            note["Front"], note["Back"] = f"front {index}", f"back {index}"
            col.add_note(note, deck)
        cards = sorted(col.find_cards(""))
        col.sched.bury_cards(cards[0:1], manual=True)
        col.sched.bury_cards(cards[2:3], manual=False)
        queues = col.db.list("select queue from cards order by id")
        assert sorted(set(queues)) == [-3, -2, 0]
        apkg = str(folder / "anki.apkg")
        col.export_anki_package(
            out_path=apkg,
            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=True),
            limit=None,
        )
        colpkg = str(folder / "anki.colpkg")
        col.export_collection_package(colpkg, include_media=True, legacy=True)
    finally:
        col.close()
    return folder, apkg, colpkg, queues


def restored_state(folder: str, package: str) -> tuple[list[int], list[tuple[str, int, int, int]]]:
    """The queues Anki's restore of `package` holds and its deck counts for today (the counts
    run the scheduler, which releases buried cards on a new day), then the queues again."""
    os.makedirs(folder)
    col = Collection(os.path.join(folder, "collection.anki2"))
    try:
        _import_colpkg(col, package)
        tree = col.sched.deck_due_tree()
        counts = [(child.name, child.new_count, child.learn_count, child.review_count) for child in tree.children]
        return col.db.list("select queue from cards order by id"), counts
    finally:
        col.close()


@pytest.mark.parametrize("to", ["colpkg", "colpkg-modern"])
def test_a_collection_package_from_a_deck_package_keeps_its_cards_buried(packages, to):
    folder, apkg, colpkg, queues = packages
    ours = str(folder / f"ours-{to}.colpkg")
    run = deckport("convert", apkg, ours, "--to", to)
    assert run.returncode == 0, run.stderr
    truth = restored_state(str(folder / f"truth-{to}"), colpkg)
    assert truth[0] == queues, "Anki's restore of its own package keeps the cards buried"
    assert restored_state(str(folder / f"ours-{to}"), ours) == truth
