"""Seed 001: "A(DP)²SGD: Asynchronous Decentralized Parallel Stochastic Gradient Descent with Differential
Privacy", Jie Xu, Wei Zhang, Fei Wang (001_53c39e87fd81b1a8.txt).

One submodule per concept; claims register on import (discovered by ``theory.ledger.load_all``):
``mixing`` (Algorithm 1, the gossip matrix, rho), ``utility`` (Theorem 1 -> Propositions 1, 2),
``theorem_2`` (Theorem 2's sigma^2 and condition (7)), ``subsampled_rdp`` (Lemma 2 and the
bounds it is checked against), ``sensitivity`` (what the proof assumes vs what Algorithm 1 runs),
``observation`` (what the adversary observes: the readings of Theorem 2 and Remark 1),
``settings`` (the experiments' privacy, re-accounted), ``remark_1``, ``tables`` (Tables 1, 2 and the
sentences built on them), ``figures_claims`` (the reproductions' verdicts).
"""

TITLE = "A(DP)²SGD: Asynchronous Decentralized Parallel Stochastic Gradient Descent with Differential Privacy"
AUTHORS = "Jie Xu, Wei Zhang, Fei Wang"
