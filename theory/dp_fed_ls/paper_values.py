"""Numbers printed in seed 004 (004_da72e1d6878ba772.txt), stored as INPUTS with their seed lines.

Every value is a :class:`theory.printed.Printed` whose text stands verbatim on its line (a test checks
it). Nothing here is an output of our code.
"""
from __future__ import annotations

from theory.printed import Printed as P

SEED = "004_da72e1d6878ba772.txt"


def _row(texts: str, line: str) -> tuple:
    return tuple(P(t, line) for t in texts.split())


#: Experimental settings of Sections 6.1-6.3 (L310, L329, L369) and S4 (L1056-1058).
SETTINGS = {
    "mnist-uniform": {"clients": P("1000", "L310"), "tau": P("0.05", "L310"), "rounds": P("30", "L310"),
                      "clip": P("0.3", "L310")},
    "mnist-poisson": {"clients": P("500", "L310"), "tau": P("0.05", "L310"), "rounds": P("30", "L310"),
                      "clip": P("0.3", "L310")},
    "mnist-training": {"batch": P("10", "L310"), "local_epochs": P("5", "L310"), "lr": P("0.1", "L310"),
                       "lr_decay": P("0.99", "L310"), "weight_decay": P("4e-5", "L310")},
    "svhn": {"clients": P("2,000", "L329"), "tau": P("0.05", "L329"), "rounds": P("200", "L329"),
             "noise_multipliers": _row("1.5 1.3 1.1 1.0", "L329")},
    "shakespeare": {"clients": P("975", "L369"), "tau": P("0.2", "L369"), "rounds": P("100", "L369"),
                    "noise_multipliers": _row("1.6 1.4 1.2 1.0", "L369")},
    "s9c": {"clients": P("2000", "L1058"), "tau": P("0.05", "L1058"), "rounds": P("1000", "L1058")},
}

#: the MNIST images (L310: "28x28 grayscale images of digit from 0 to 9"): the logistic regression's size
MNIST_IMAGE_SIDE = P("28", "L310", note="28 x 28 pixels")
MNIST_LAST_DIGIT = P("9", "L310", note="digits 0 to 9: ten classes")

#: the global learning rate of every experiment (L306: "We fixed the global learning rate eta_g = 1").
GLOBAL_LR = P("1", "L306")

#: delta = 1/N^1.1 (L302): the exponent.
DELTA_EXPONENT = P("1.1", "L302")

#: Tables 2-6: the epsilon header (uniform then Poisson) and accuracy rows keyed by sigma (or estimator/order).
TABLES = {
    2: {"epsilon": _row("6 7 8 9 6 7 8 9", "L316"),
        "rows": {0.0: _row("78.41 81.85 83.24 84.62 80.03 82.05 83.33 84.52", "L317"),
                 1.0: _row("82.44 85.12 85.22 84.69 82.34 84.85 84.65 84.49", "L318"),
                 2.0: _row("83.33 84.65 85.31 85.27 83.43 84.85 84.39 85.87", "L319"),
                 3.0: _row("83.60 83.53 85.18 85.35 82.94 84.29 84.16 84.79", "L320")}},
    3: {"epsilon": _row("5.23 6.34 7.84 8.66 2.56 3.19 4.24 5.07", "L333"),
        "rows": {0.0: _row("81.40 82.46 85.18 85.84 82.29 83.82 85.53 86.56", "L334"),
                 0.5: _row("82.72 84.65 86.49 86.32 84.27 85.47 87.00 87.50", "L335"),
                 1.0: _row("82.39 84.13 85.88 86.39 84.65 85.38 86.37 87.26", "L336"),
                 1.5: _row("82.19 83.97 86.03 85.66 84.23 85.12 86.58 87.35", "L337")}},
    4: {"epsilon": _row("5.23 6.34 7.84 8.66 2.56 3.19 4.24 5.07", "L350"),
        "rows": {"JS": _row("52.12 52.41 59.73 61.77 56.23 55.60 60.43 60.64", "L351"),
                 "TH": _row("20.05 18.52 21.72 25.15 22.12 16.96 23.24 26.89", "L352")}},
    5: {"baseline": (P("85.18", "L356"), P("85.53", "L356")),
        "epsilon_poisson": P("4.24", "L356"), "epsilon_uniform": P("7.838", "L356"),
        "rows": {0.5: _row("86.49 87.45 86.79 86.93 87.00 86.77 86.43 87.48", "L359"),
                 1.0: _row("85.88 87.41 86.97 87.42 86.37 86.15 87.21 87.24", "L360"),
                 1.5: _row("86.03 87.10 87.11 86.34 86.58 86.23 86.83 87.04", "L361")}},
    6: {"epsilon": _row("14.94 17.69 22.43 27.24 6.78 8.22 10.41 14.04", "L375"),
        "rows": {0.0: _row("38.22 38.47 39.96 41.87 38.81 39.42 40.19 41.55", "L376"),
                 0.5: _row("39.14 40.27 41.95 43.76 39.07 40.02 42.02 43.59", "L377"),
                 1.0: _row("39.18 40.94 42.60 43.90 39.45 41.07 42.09 43.78", "L378"),
                 1.5: _row("40.16 40.89 42.50 43.95 39.38 40.99 42.19 43.67", "L379")}},
}

#: the sigma list of the captions of Tables 3 and 6 as printed ("DP-Fed-LS (sigma = 0,5,1,1.5)", L331, L373)
CAPTION_SIGMAS = {3: _row("0 5 1 1.5", "L331"), 6: _row("0 5 1 1.5", "L373")}

#: Constants of the privacy lemmas, their proofs and the theorems built on them.
LEMMA = {
    "lemma2_rdp_constant": P("3.5", "L182"),
    "eq16_nu2_min": P("0.67", "L611"),
    "eq16_constant": P("6", "L613"),
    "lemma3_rdp_constant": P("2", "L200"),
    "eq21_nu2_min": P("0.53", "L666"),
    "remark1_wang_constant": P("5", "L186"),
    "remark1_wang_nu2": P("1.5", "L186"),
    "thm1_constant": P("14", "L192"),
    "thm2_constant": P("2", "L210"),
    "remark3_nu1": P("8", "L294"),
}

#: Fig. S9(c) least-squares fits (L1066): slopes and intercepts of Theorem 1 and the moment accountant.
FIG_S9C = {"slope_theorem": P("-0.80", "L1066"), "slope_accountant": P("-0.73", "L1066"),
           "intercept_theorem": P("3.31", "L1066"), "intercept_accountant": P("2.29", "L1066")}

#: Fig. S14 (L1117): noise std and learning rate; Fig. S15 (L1119): signal on [0, 30], nu = 0.1, sigma = 1.
FIG_S14 = {"noise_std": P("0.3", "L1121"), "learning_rate": P("0.1", "L1121"), "updates": P("100", "L1121")}
FIG_S15 = {"x_max": P("30", "L1117"), "nu": P("0.1", "L1124"), "sigma": P("1", "L1124")}

#: Data-set sizes stated in Section 6 (inputs of the split arithmetic checked in ``tables``).
DATA = {
    "mnist_train": P("60", "L310"), "mnist_split": P("50", "L310"), "mnist_validation": P("10", "L310"),
    "mnist_clients_uniform": P("1000", "L310"), "mnist_per_client_uniform": P("50", "L310"),
    "mnist_clients_poisson": P("500", "L310"), "mnist_per_client_poisson": P("100", "L310"),
    "svhn_train": P("73,257", "L329"), "svhn_extra": P("531,131", "L329"), "svhn_test": P("26,032", "L329"),
    "svhn_clients": P("2,000", "L329"), "svhn_per_client": P("300", "L329"),
    "shakespeare_fractions": (P("0.7", "L369"), P("0.1", "L369"), P("0.2", "L369")),
    "mia_records": P("64", "L392"), "mia_clients": P("500", "L392"),
}
