"""Numbers printed in seed 003 (003_8b45c9baf0227e58.txt) that the claims and figures take as INPUTS.

Every entry is a :class:`theory.printed.Printed` with the text exactly as it stands on the cited line
(a test checks it), never an output of our code. The paper prints no worked numeric result for its
theorems; what it prints are experimental settings and the headline numbers of Sec. 7.
"""
from __future__ import annotations

from theory.printed import Printed

#: the seed file these values stand in (tests/test_paper_values.py reads the lines from it)
SEED = "003_8b45c9baf0227e58.txt"

#: common experimental settings (Sec. 7.1.4, L463) and the testbed defaults (Sec. 7.3.2, L560).
SETTINGS = {
    "regulariser": Printed("0.0001", "L463"),
    "edges_default": Printed("5", "L463", note="K = 5 unless stated"),
    "batch": Printed("12", "L463"),
    "theta": Printed("0.5", "L463"),
    "default_epsilon": Printed("0.1", "L560"),
    "default_batch": Printed("12", "L560"),
    "default_sigma": Printed("30", "L560"),
    "default_L": Printed("10", "L560"),
    "default_delta_exponent": Printed("-3", "L560", note="delta = 10^{-3}"),
}

#: Fig. 4 (L484): per-iteration budgets of the gradient-inversion demonstration and iteration range.
FIG4 = {
    "epsilons": (Printed("0.01", "L484"), Printed("0.1", "L484"), Printed("1", "L484")),
    "iterations_low": Printed("2000", "L484"),
    "iterations_high": Printed("14,000", "L484"),
}

#: Fig. 5 (L486): LR on USPS, 100 edges, epsilon 0.1 per iteration, AUDP clip bounds and MAPA initial bounds.
FIG5 = {
    "edges": Printed("100", "L486"),
    "epsilon": Printed("0.1", "L486"),
    "audp_clips": (Printed("15", "L486"), Printed("3", "L486"), Printed("0.2", "L486")),
    "mapa_initial_clips": (Printed("200", "L486"), Printed("100", "L486"), Printed("10", "L486")),
}

#: Fig. 6 (L503-L507): iterations per model, the epsilon range, the headline improvements.
FIG6 = {
    "iterations_lr": Printed("15,000", "L503"),
    "iterations_svm": Printed("10,000", "L503"),
    "iterations_cnn": Printed("25,000", "L503"),
    "epsilon_low": Printed("0.1", "L503"),
    "epsilon_high": Printed("0.5", "L503"),
    "improvement_cnn_mnist_percent": Printed("20", "L507", note="'20%' in Fig. 6(c)"),
    "improvement_cnn_usps_percent": Printed("100", "L507", note="'100%' in Fig. 6(f)"),
}

#: Fig. 7 (L525-L546): loss thresholds of the six panels (in the panel captions), edges, epsilon.
FIG7 = {
    "threshold_lr_mnist": Printed("0.4", "L525"),
    "threshold_svm_mnist": Printed("0.1", "L527"),
    "threshold_cnn_mnist": Printed("0.1", "L529"),
    "threshold_lr_usps": Printed("0.2", "L531"),
    "threshold_svm_usps": Printed("0.05", "L533"),
    "threshold_cnn_usps": Printed("0.1", "L535"),
    "edges": (Printed("10", "L540"), Printed("100", "L540"), Printed("1000", "L540")),
    "epsilon": Printed("0.1", "L540"),
}

#: data sets (Sec. 7.1.3, L457).
DATA = {
    "usps_images": Printed("9,298", "L457"),
    "usps_features": Printed("256", "L457"),
    "usps_train": Printed("7,291", "L457"),
    "usps_test": Printed("2,007", "L457"),
    "mnist_images": Printed("70,000", "L457"),
    "mnist_features": Printed("784", "L457"),
    "mnist_train": Printed("60,000", "L457"),
    "mnist_test": Printed("10,000", "L457"),
}

#: Fig. 2 walk-through (L196): gradient computed at x_2 is applied at x_8 after 6 updates.
FIG2 = {"stale_updates": Printed("6", "L196")}

#: Remarks 1 and 2 (L272, L280): the printed orders the remarks read off Theorem 2.
REMARKS = {
    "remark1_order_power": Printed("2", "L272", note="'the error bound of AUDP has the order of O(Delta S^2/epsilon^2)'"),
    "remark2_delay_root": Printed("4", "L280", note="'O(1/sqrt T) as long as tau_max = O(T^{1/4})': the root index"),
}
