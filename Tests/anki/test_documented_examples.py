"""Every deckport command the README and the man page show runs as shown.

The commands are taken from the documents themselves (not copied here): every `deckport …` line
of the README's ```sh and ```console blocks (with the output a console block shows after it),
the README's inline commands that name real files (no FILE/SRC/DEST placeholders), and every
`deckport …` command in the man page's text. Each runs with bash in a fresh folder holding the
files the documents name (`French.apkg`, `decks/`, `default.store`, a damaged `broken.apkg`, …)
and a link to `fixtures/`, with the built deckport first on the PATH. A command succeeds unless
the output shown for it is an error; `deckport diff` exits as `diff` does, 1 when the output shown
for it lists differences (0 when it shows none, or "No differences."); every output line shown
must appear in what it prints (`…` stands for anything after it)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import zipfile

import pytest

from conftest import REPO
from test_csv_helpers import DECKPORT, deckport_exists

if not deckport_exists():
    pytest.skip("the deckport binary does not exist yet; build it first", allow_module_level=True)

SUBCOMMANDS = ("convert", "inspect", "render", "diff", "migrate", "formats")
PLACEHOLDER = re.compile(r"^(FILE|SRC|DEST|IN|OUT|DIR|FORMAT|PREFIX|A|B)$")


def read(path: str) -> str:
    with open(os.path.join(REPO, path), encoding="utf-8") as handle:
        return handle.read()


def readme_examples() -> list[tuple[str, list[str]]]:
    """(command line, output lines shown) for each README example."""
    text = read("README.md")
    examples: list[tuple[str, list[str]]] = []
    for language, body in re.findall(r"^```(sh|console)\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
        lines = body.rstrip("\n").split("\n")
        if language == "sh":
            examples += [(line.split("  #")[0].strip(), []) for line in lines if "deckport " in line.split("#")[0]]
            continue
        for index, line in enumerate(lines):
            if line.startswith("$ ") and "deckport " in line:
                shown = []
                for following in lines[index + 1 :]:
                    if following.startswith("$ "):
                        break
                    shown.append(following)
                examples.append((line[2:], shown))
    for inline in re.findall(r"`(deckport [a-z][^`]*)`", text):
        words = inline.split()
        if words[1] in SUBCOMMANDS and not any(PLACEHOLDER.match(word) for word in words) and (
            len(words) >= 3 or words[1] == "formats"
        ):
            examples.append((inline, []))
    return examples


def man_page_examples() -> list[tuple[str, list[str]]]:
    """Each `deckport SUBCOMMAND …` in the man page's text, up to the word that ends its sentence."""
    words = " ".join(line for line in read("man/deckport.1").split("\n") if not line.startswith(".")).split()
    examples = []
    for index, word in enumerate(words[:-1]):
        if word != "deckport" or words[index + 1] not in SUBCOMMANDS:
            continue
        command = ["deckport"]
        for token in words[index + 1 :]:
            if token.endswith((".", ",", ";", ")")):
                command.append(token[:-1])
                break
            command.append(token)
        examples.append((" ".join(command), []))
    return examples


EXAMPLES = readme_examples() + man_page_examples()


def test_the_documents_show_examples():
    commands = [command for command, _ in EXAMPLES]
    assert any(" - --to json | jq" in command for command in commands)
    assert any("--out-dir" in command for command in commands)
    assert any("--dry-run" in command for command in commands)
    assert any(command.startswith("cat ") and "deckport inspect -" in command for command in commands)
    assert any(command.startswith("deckport diff ") for command in commands)
    assert len(EXAMPLES) >= 12


def written_files(command: str) -> set[str]:
    """The files a `deckport convert IN OUT …` in `command` writes (its OUT), which the sandbox
    must not hold already."""
    written = set()
    for part in command.split("|"):
        words = part.split()
        if "convert" not in words:
            continue
        positional = [word for word in words[words.index("convert") + 1 :] if not word.startswith("-") or word == "-"]
        # Options that take a value are followed by it; keep only words not after such an option.
        values = {words[index + 1] for index, word in enumerate(words[:-1]) if word.startswith("--") and not words[index + 1].startswith("-")}
        positional = [word for word in positional if word not in values]
        if len(positional) >= 2:
            written.add(positional[1])
    return written


def sandbox(folder: str, command: str) -> None:
    """The files the examples name, in `folder` (but not the one `command` writes)."""
    fixtures = os.path.join(REPO, "fixtures")
    os.symlink(fixtures, os.path.join(folder, "fixtures"))
    for name in {"French.apkg", "deck.apkg"} - written_files(command):
        shutil.copy(os.path.join(fixtures, "anki", "latest_sched.apkg"), os.path.join(folder, name))
    # A backup and the current collection, as `deckport diff backup.colpkg current.colpkg` names them.
    shutil.copy(os.path.join(fixtures, "anki", "legacy.colpkg"), os.path.join(folder, "backup.colpkg"))
    shutil.copy(os.path.join(fixtures, "anki", "latest.colpkg"), os.path.join(folder, "current.colpkg"))
    os.mkdir(os.path.join(folder, "decks"))
    for name in ("latest_sched.apkg", "legacy2_sched.apkg", "genanki_legacy1.apkg"):
        shutil.copy(os.path.join(fixtures, "anki", name), os.path.join(folder, "decks", name))
    for name in ("words.csv", "vocabulary.csv"):
        with open(os.path.join(folder, name), "w", encoding="utf-8") as handle:
            handle.write("Term,Definition\nle chat,the cat\nla maison,the house\n")
    # A store the app created (empty), and another store of the same app with cards in it.
    shutil.copy(os.path.join(fixtures, "app", "flashzilla-empty.store"), os.path.join(folder, "default.store"))
    shutil.copy(os.path.join(fixtures, "app", "flashzilla.store"), os.path.join(folder, "Old.sqlite"))
    # broken.apkg: a package whose meta names version 4 (protobuf field 1 = 4).
    with zipfile.ZipFile(os.path.join(fixtures, "anki", "latest_sched.apkg")) as source, zipfile.ZipFile(
        os.path.join(folder, "broken.apkg"), "w"
    ) as target:
        for member in source.infolist():
            target.writestr(member, b"\x08\x04" if member.filename == "meta" else source.read(member))


@pytest.mark.parametrize("command,shown", EXAMPLES, ids=[command for command, _ in EXAMPLES])
def test_example_runs_as_shown(tmp_path, command, shown):
    if "| jq" in command and shutil.which("jq") is None:
        pytest.fail("jq is not installed (scripts/test.sh installs it)")
    sandbox(str(tmp_path), command)
    # The examples show dates (diff's due dates) as they are in UTC.
    environment = dict(os.environ, PATH=os.path.dirname(DECKPORT) + os.pathsep + os.environ["PATH"], TZ="UTC")
    result = subprocess.run(
        ["bash", "-c", "set -o pipefail; " + command], cwd=tmp_path, env=environment,
        capture_output=True, text=True, timeout=600,
    )
    printed = (result.stdout + result.stderr).split("\n")
    expects_error = any("error:" in line for line in shown)
    lists_differences = " diff " in f" {command} " and any(line.strip() for line in shown) and "No differences." not in shown
    if expects_error:
        assert result.returncode == (2 if " diff " in f" {command} " else 1), result.stdout + result.stderr
    elif lists_differences:
        assert result.returncode == 1, result.stdout + result.stderr
    else:
        assert result.returncode == 0, result.stdout + result.stderr
    for line in shown:
        expected = line.rstrip()
        if expected in ("", "…"):
            continue
        if "…" in expected:
            prefix = expected.split("…")[0]
            assert any(actual.startswith(prefix) for actual in printed), f"no line starts with {prefix!r}"
        else:
            assert expected in printed, f"{expected!r} not printed; got:\n{result.stdout}{result.stderr}"
