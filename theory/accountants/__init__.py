"""Claims about the accountants themselves (seed ``numerics``): numerics checked against independent oracles.

A small package beside the paper packages: it may import :mod:`theory.lemmas`, never a paper package.
"""
