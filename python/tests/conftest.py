"""Shared fixtures: the `morris` command line and databases built once per test run.

The databases are solved here, with the CLI, so that the tests compare the binding against an
independent reader of the same files (`morris query --json`) and need nothing prepared.
"""

import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def morris_bin():
    path = pathlib.Path(os.environ.get("MORRIS_BIN", REPO / "target" / "release" / "morris"))
    if not path.exists():
        subprocess.run(["cargo", "build", "--release", "-p", "morris"], cwd=REPO, check=True)
    assert path.exists(), f"{path}: build the CLI with cargo build --release -p morris"
    return str(path)


def _solve(morris_bin, db, *args):
    subprocess.run([morris_bin, "solve", "--db", str(db), *args], check=True,
                   stdout=subprocess.DEVNULL)
    return str(db)


@pytest.fixture(scope="session")
def db5(morris_bin, tmp_path_factory):
    """Nine Men's Morris with at most 5 stones a side (moving and placement keys): ~30 s."""
    given = os.environ.get("MORRIS_TEST_DB5")
    if given:
        return given
    return _solve(morris_bin, tmp_path_factory.mktemp("db5"), "--max-stones", "5")


@pytest.fixture(scope="session")
def db_s4(morris_bin, tmp_path_factory):
    """The whole 4-stone game on the Nine Men's board (seconds)."""
    return _solve(morris_bin, tmp_path_factory.mktemp("s4"), "--stones", "4")


@pytest.fixture(scope="session")
def twelve_s4(morris_bin, tmp_path_factory):
    """The whole 4-stone Twelve Men's Morris, unpacked and packed (seconds)."""
    db = _solve(morris_bin, tmp_path_factory.mktemp("twelve-s4"), "--game", "twelve",
                "--stones", "4")
    packed = tmp_path_factory.mktemp("twelve-s4-packed")
    subprocess.run([morris_bin, "pack", "--db", db, "--out", str(packed), "--game", "twelve",
                    "--stones", "4", "--what", "dtw"], check=True, stdout=subprocess.DEVNULL)
    return db, str(packed)


def query(morris_bin, db, position, *args):
    import json
    out = subprocess.run([morris_bin, "query", "--db", db, "--json", *args, str(position)],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)
