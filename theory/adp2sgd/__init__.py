"""Seed 001: "A(DP)²SGD: Asynchronous Decentralized Parallel Stochastic Gradient Descent with Differential
Privacy", Jie Xu, Wei Zhang, Fei Wang (001_53c39e87fd81b1a8.txt).

One submodule per concept; claims register on import (discovered by ``theory.ledger.load_all``):
``mixing`` (Algorithm 1, the gossip matrix, rho), ``utility`` (Theorem 1 -> Propositions 1, 2),
``theorem_2`` (Theorem 2's sigma^2 and condition (7)), ``subsampled_rdp`` (Lemma 2 and the
bounds it is checked against), ``sensitivity`` (what the proof assumes vs what Algorithm 1 runs),
``observation`` (what the adversary observes: the readings of Theorem 2 and Remark 1),
``settings`` (the experiments' privacy, re-accounted), ``remark_1``, ``tables`` (Tables 1, 2 and the
sentences built on them), ``figures_claims`` (the reproductions' verdicts); issue 31's additions:
``heterogeneous_rate`` (Theorem 2's gamma under heterogeneous learners), ``theorem_1_noise_step`` (slips in the
proofs of Theorem 1 and Lemma 1), ``summary_claims`` (L194, L267), ``rdp_vs_advanced`` (L110), ``lstm_size``
(the SWB300 LSTM's size from its architecture).
"""

TITLE = "A(DP)²SGD: Asynchronous Decentralized Parallel Stochastic Gradient Descent with Differential Privacy"
AUTHORS = "Jie Xu, Wei Zhang, Fei Wang"
