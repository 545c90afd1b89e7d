"""``python -m numerics``: the accountants' command line (see numerics.cli)."""
from .cli import main

raise SystemExit(main())
