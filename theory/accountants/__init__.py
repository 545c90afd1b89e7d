"""Claims about the accountants themselves (seed ``numerics``): numerics checked against independent oracles.

A small package beside the paper packages: it may import :mod:`theory.lemmas`, never a paper package.
"""

#: how the report heads this package's section (it checks no paper: SEED is None)
TITLE = "The accountants checked against independent oracles"
AUTHORS = "this suite"
SEED = None
