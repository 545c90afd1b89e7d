"""Seed 003: "Asynchronous Federated Learning with Differential Privacy for Edge Intelligence".

Yanan Li, Shusen Yang, Xuebin Ren and Cong Zhao (arXiv 1912.07902, v1); seed file
``003_8b45c9baf0227e58.txt``. The paper proposes AUDP (asynchronous update with DP, Sec. 5) and MAPA
(multi-stage adjustable private algorithm, Sec. 6, Algorithm 1) for asynchronous edge-cloud federated
learning, with a norm-based noise (Eq. 6, L173), a per-iteration privacy claim (Theorems 1 and 3),
convergence bounds (Theorems 2 and 4) and a stage design (Sec. 6.2, Table II).

Modules (one concept each): ``noise`` (Eq. 6: normaliser, second moment, epsilon-DP, sampler),
``sensitivity`` (clipping and the global sensitivity of Def. 2), ``theorem3`` (the "failure
probability" delta of Eq. 12), ``theorem4`` (Theorem 4 and its proof algebra, the exact quadratic
counterexample), ``theorem2`` (Theorem 2's sums and telescoping), ``stages`` (Sec. 6.2 / Algorithm 1 /
Table II), ``accounting`` (per-iteration against whole-run epsilon), ``experiments`` (figure claims).
"""

#: the paper as the report names it (seed file L1, L3)
TITLE = "Asynchronous Federated Learning with Differential Privacy for Edge Intelligence"
AUTHORS = "Yanan Li, Shusen Yang, Xuebin Ren, Cong Zhao"
SEED = "003_8b45c9baf0227e58.txt"
#: the one error behind most findings: the 1-D Laplace density, normaliser and variance written for an N-dim vector
CAUSE_LAPLACE_1D = "003-laplace-1d-formulas-in-n-dims"
