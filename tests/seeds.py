"""Where the seed papers are: ``../shared/seeds`` beside the checkout, or ``$DPV_SEEDS_DIR``.

CI has the seeds; a test that reads them fails with a clear message when they are missing, it never skips.
"""
import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SEEDS_DIR = Path(os.environ.get("DPV_SEEDS_DIR", REPO.parent / "shared" / "seeds"))


def seed_path(seed_file: str) -> Path:
    """The path of one seed file; an ``AssertionError`` that says how to provide it when it is missing."""
    path = SEEDS_DIR / seed_file
    assert path.is_file(), (f"seed file {seed_file} not found in {SEEDS_DIR}: the tests that compare against "
                            "the seed text need the seeds (../shared/seeds beside the checkout, or set "
                            "DPV_SEEDS_DIR)")
    return path
