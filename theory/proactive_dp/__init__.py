"""Seed 002: Proactive DP (002_13c470b90c68bab6.txt).

One submodule per concept holding all of this paper's claims; they register on import and
:func:`theory.ledger.load_all` finds them by a scan of theory/. Printed numbers live in
:mod:`theory.proactive_dp.paper_values`; results shared with other papers in :mod:`theory.lemmas`.
"""

#: the paper as the report names it (seed file L3, L5)
TITLE = "Proactive DP: A Multiple Target Optimization Framework for DP-SGD"
AUTHORS = "Marten van Dijk, Nhuong V. Nguyen, Toan N. Nguyen, Lam M. Nguyen, Phuong Ha Nguyen"
SEED = "002_13c470b90c68bab6.txt"
