"""Numbers printed in seed 002's tables, stored as INPUTS with their seed lines (002_13c470b90c68bab6.txt).

Every printed number is a :class:`theory.printed.Printed` (text exactly as printed, seed line), so comparisons
use the printed precision (theory.ledger.printed_tolerance) and ``tests/test_paper_values.py`` checks each
stands on its line. Readers that compare with the printed strings take :func:`theory.printed.texts` of a
table (the old plain shape). Nothing here is an output of our code.
"""
from __future__ import annotations

from theory.printed import Printed

SEED = "002_13c470b90c68bab6.txt"

#: Tables 3-5 (L1404-1478): training configurations. ``s`` lists the constant sample sizes trained.
EXPERIMENT_SETTINGS = {
    "table-3": {"dataset": "LIBSVM", "n": 10_000, "k_total": 50_000, "epsilon": Printed("0.04945", "L1410"),
                "sigma": Printed("19.29962", "L1411"), "delta": Printed("0.0001", "L1412"),
                "s": (1, 5, 10, 15, 20, 26), "lines": "L1404-1417",
                "eta0": Printed("0.1", "L1407"), "clip": Printed("0.1", "L1413"), "clients": Printed("5", "L1416")},
    "table-4": {"dataset": "MNIST", "n": 60_000, "k_total": 360_000, "epsilon": Printed("0.15007", "L1447"),
                "sigma": Printed("12.10881", "L1448"), "delta": Printed("1.667e-5", "L1449"),
                "s": (10, 25, 50, 100, 200, 300, 370), "lines": "L1441-1454"},
    "table-5": {"dataset": "CIFAR10", "n": 50_000, "k_total": 350_000, "epsilon": Printed("0.50102", "L1471"),
                "sigma": Printed("6.572", "L1472"), "delta": Printed("2e-5", "L1473"),
                "s": (10, 25, 50, 100, 300, 500, 689), "lines": "L1465-1478"},
}


def _row(label: str, sigma: str, s: int, line: str) -> tuple:
    """A row of Tables 6-8: (epsilon label, sigma, s, line), the two printed numbers as Printed values."""
    return Printed(label, line), Printed(sigma, line), s, line


#: Tables 6-8: rows (epsilon label, sigma, s, line); the table's (N, K, delta as printed in its first row) and lines.
BUDGET_TABLES = {
    6: {"n": 10_000, "k_total": 50_000, "delta": Printed("0.0001", "L1519"), "lines": "L1516-1524", "rows": (
        _row("0.04945", "19.29962", 26, "L1519"), _row("0.1", "13.06742", 55, "L1520"),
        _row("0.25", "8.59143", 103, "L1521"), _row("0.5", "6.05868", 168, "L1522"),
        _row("1.0", "4.27273", 265, "L1523"), _row("2.0", "3.03241", 400, "L1524"))},
    7: {"n": 60_000, "k_total": 360_000, "delta": Printed("1.667e-5", "L1551"), "lines": "L1548-1557", "rows": (
        _row("0.15007", "12.10881", 370, "L1551"), _row("0.2", "10.48452", 460, "L1552"),
        _row("0.25", "9.37379", 543, "L1553"), _row("0.5", "6.63120", 889, "L1554"),
        _row("0.75", "5.41887", 1168, "L1555"), _row("1.0", "4.69244", 1409, "L1556"),
        _row("2.0", "3.31648", 2159, "L1557"))},
    8: {"n": 50_000, "k_total": 350_000, "delta": Printed("2.0e-5", "L1566"), "lines": "L1563-1572", "rows": (
        _row("0.25", "9.29838", 417, "L1566"), _row("0.5", "6.57192", 689, "L1567"),
        _row("0.75", "5.36937", 909, "L1568"), _row("1.0", "4.65014", 1099, "L1569"),
        _row("1.5", "4.16111", 1267, "L1570"), _row("2.0", "3.28831", 1690, "L1571"),
        _row("3.0", "2.68273", 1994, "L1572"))},
}


def _cells(line: str, t_min: str, t_min_asym: str) -> tuple:
    """A row of Tables 9-11: (T_min column, T_min,asym column, line), the cells as Printed values."""
    return Printed(t_min, line), Printed(t_min_asym, line), line


#: Tables 9-11 (L1600-1622): the D.4 calculator's inputs (caption) and printed cells (T_min column,
#: T_min,asym column). delta = 1/N and theta = 1 per the captions.
CALCULATOR_TABLES = {
    9: {"inputs": {"sigma": Printed("19.29962", "L1606"), "n": 10_000, "k": 5, "theta": 1}, "caption": "L1606",
        "cells": {"s": _cells("L1601", "26", "198"), "epsilon_target": _cells("L1602", "0.0497", "0.0497"),
                  "epsilon_fdp": _cells("L1603", "0.0105", "0.0533"), "factor": _cells("L1604", "4.7234", "0.9328")}},
    10: {"inputs": {"sigma": Printed("12.10881", "L1614"), "n": 60_000, "k": 6, "theta": 1}, "caption": "L1614",
         "cells": {"s": _cells("L1609", "288", "3042"), "epsilon_target": _cells("L1610", "0.1521", "0.1521"),
                   "epsilon_fdp": _cells("L1611", "0.0389", "0.2097"), "factor": _cells("L1612", "3.9147", "0.7257")}},
    11: {"inputs": {"sigma": Printed("6.572", "L1622"), "n": 50_000, "k": 7, "theta": 1}, "caption": "L1622",
         "cells": {"s": _cells("L1617", "406", "7504"), "epsilon_target": _cells("L1618", "0.5253", "0.5253"),
                   "epsilon_fdp": _cells("L1619", "0.1133", "0.8239"), "factor": _cells("L1620", "4.6372", "0.6376")}},
}

#: the GDP delta curve (64) as printed (L1166): a formula, kept as text for the report (not a number, so not a
#: Printed value; the claim 002.appC.gdp-delta-formula checks it)
PRINTED_64 = (r"\delta(\epsilon) = \Phi(-\epsilon/\mu + \mu/2) - e^{\epsilon}\Phi(-\epsilon/\mu - \mu/2)",
              "L1166")

#: the utility-graph statements of App. D.2 (L1381, L1383) and the budget figures (L1496): printed numbers the
#: figure claims compare with (accuracy loss "about 10%" is read as an absolute 0.10 of accuracy).
FIGURE_STATEMENTS = {
    "fig4_clip": Printed("0.1", "L1381"), "fig4_sigma_low": Printed("18", "L1381"),
    "fig4_sigma_high": Printed("22", "L1381"), "fig4_smaller_clip": Printed("0.075", "L1381"),
    "fig6_clip": Printed("0.025", "L1383"), "fig6_sigma_max": Printed("12", "L1383"),
    "fig11_loss_percent": Printed("10", "L1496"),
    "fig4_smaller_sigma_low": Printed("18", "L1381"), "fig4_smaller_sigma_high": Printed("30", "L1381"),
}
#: accuracies printed for the strongly convex budget figure (L276, Fig 1(c) = Fig 11): drawn beside ours, in %.
FIGURE_ACCURACIES = {"0.04945": Printed("86", "L276"), "0.1": Printed("91", "L276"), "non-DP": Printed("93", "L276")}


#: running text L280 and L286 (the comparison with Abadi et al.)
L280_286 = {"T": Printed("350000", "L280"), "epochs": Printed("7", "L280"), "N": Printed("50000", "L280"),
            "accuracy_dp": Printed("60", "L280"), "abadi_non_dp": Printed("86", "L286"),
            "abadi_deduction": Printed("26", "L286"), "ours_non_dp": Printed("74.74", "L286"),
            "ours_deduction": Printed("14.14", "L286")}


#: L1090: the constants of the discussion of (62) with (32)-(34)
L1090 = {"h6": Printed("0.42", "L1090"), "h10": Printed("0.58", "L1090"), "sigma_from": Printed("2.5", "L1090"),
         "k_coefficient": Printed("2.4", "L1090"), "theta_max": Printed("6.85", "L1090"), "ratio": Printed("0.88", "L1090"),
         "sigma_min": Printed("6", "L1090")}


#: L66: "we assume eps < 0.5 such that e^eps < 1.65"; L188: "k generally represents 50 or 100s of epochs"
L66_L188 = {"eps_max": Printed("0.5", "L66"), "e_eps_max": Printed("1.65", "L66"), "k_typical": Printed("50", "L188")}


#: the running text's "upper bound for constant sample sizes" of Theorem B.4 (L1428, L1430, L1490) and footnote 12
#: (L282: "s = 26 meets the lower bound on T; a larger s violates this lower bound"), keyed by the setting's table
S_UPPER_BOUND_TEXT = {"table-3": Printed("26", "L1428"), "table-4": Printed("370", "L1430"),
                      "table-5": Printed("689", "L1490"), "fn12": Printed("26", "L282")}

#: L272: "we use privacy budget eps = 0.04945 and noise sigma = 19.2" (Table 3 prints sigma = 19.29962, L1411)
L272 = {"epsilon": Printed("0.04945", "L272"), "sigma": Printed("19.2", "L272")}

#: L1126 (remark "Reusing the local data set"): eps = 0.2, gamma theta^2 ~ 2, N = 10000 give k <= 1000, "about 10-20
#: learning tasks"
L1126 = {"epsilon": Printed("0.2", "L1126"), "gamma_theta2": Printed("2", "L1126"), "n": Printed("10000", "L1126"),
         "k_max": Printed("1000", "L1126"), "tasks_low": Printed("10", "L1126"), "tasks_high": Printed("20", "L1126")}

#: L288: the comparison with De et al. (2022): 65.9 % with WRN-40-4 "which has 98 %", a 32.1 % deduction; 56.8, 65.9,
#: 73.5 % at eps = 1, 2, 4; ours ~60 % for eps in [0.5, 3]
L288 = {"de_accuracy": Printed("65.9", "L288"), "wrn_non_dp": Printed("98", "L288"), "de_deduction": Printed("32.1", "L288"),
        "de_by_eps": ((Printed("1", "L288"), Printed("56.8", "L288")), (Printed("2", "L288"), Printed("65.9", "L288")),
                      (Printed("4", "L288"), Printed("73.5", "L288"))),
        "ours": Printed("60", "L288"), "ours_eps_low": Printed("0.5", "L288"), "ours_eps_high": Printed("3", "L288")}

#: L213 (repeated at L1132): "(eps = 0.05, delta = 1/N)-DP is possible while achieving good accuracy with sigma ~ 20"
L213 = {"epsilon": Printed("0.05", "L213"), "sigma": Printed("20", "L213")}

#: L211: "k is generally restricted to 50 or 100 epochs" (the epochs of one learning task, read with L1126's count of tasks)
L211 = {"k_low": Printed("50", "L211"), "k_high": Printed("100", "L211")}
