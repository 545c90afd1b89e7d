"""Seed 004: "Differentially Private Federated Learning with Laplacian Smoothing" (DP-Fed-LS).

Zhicong Liang, Bao Wang, Quanquan Gu, Stanley Osher, Yuan Yao. Seed file ``004_da72e1d6878ba772.txt``.

Modules: ``paper_values`` (printed numbers, inputs only), ``inventory`` (every statement and what checks
it), ``inequalities`` (the scalar inequalities (16), (19)-(21) of the lemma proofs and their exact
thresholds), ``subsampled_rdp`` (Lemmas 2-3 against the WBK bound and the exact sampled-Gaussian RDP),
``closed_form`` (Theorems 1-2: identities, feasible region, certified epsilon), ``tables`` (Tables 2-6),
``smoothing`` (the operator A_sigma, d_sigma, Proposition 1, Lemmas 5, 6, 9, Fig. S15),
``convergence`` (Theorem 3, Lemmas 7-8, Corollary 1, Fig. S9(c)), ``wbk`` (the WBK bound),
``runs`` (the MNIST experiments' settings) and ``figures`` (claims read from the full runs' CSVs); issue 31's
additions: ``nonconvex_average`` (the non-convex bounds at the averaged iterate), ``smoothing_tradeoff`` (smoothing
and the strongly convex DP term), ``convergence_constants`` (E_init of Theorems 5-6, Corollary 2's constant, Table 1
against Corollary 1), ``corollary_1``, ``theorem_4_averaging``, ``theorem_4_steps``, ``theorem_5_steps``,
``theorem_6_steps`` (steps of S3), ``experiments_vs_theory`` (eta_g = 1; Lemma 5's sign), ``fig_s14``,
``table_5_columns`` and ``proof_and_caption_slips``.
"""

#: the paper as the report names it (seed file L1; authors L3-L19, in the order the paper lists them)
TITLE = "Differentially Private Federated Learning with Laplacian Smoothing"
AUTHORS = "Zhicong Liang, Bao Wang, Quanquan Gu, Stanley Osher, Yuan Yao"
SEED = "004_da72e1d6878ba772.txt"
