"""Numbers printed in seed 002's tables, stored as INPUTS with their seed lines (002_13c470b90c68bab6.txt).

Printed numbers stay strings, exactly as printed, so comparisons use the printed precision
(theory.ledger.printed_tolerance). Nothing here is an output of our code.
"""
from __future__ import annotations

SEED = "002_13c470b90c68bab6.txt"

#: Tables 3-5 (L1404-1478): training configurations. ``s`` lists the constant sample sizes trained.
EXPERIMENT_SETTINGS = {
    "table-3": {"dataset": "LIBSVM", "n": 10_000, "k_total": 50_000, "epsilon": "0.04945", "sigma": "19.29962",
                "delta": "0.0001", "s": (1, 5, 10, 15, 20, 26), "lines": "L1404-1417"},
    "table-4": {"dataset": "MNIST", "n": 60_000, "k_total": 360_000, "epsilon": "0.15007", "sigma": "12.10881",
                "delta": "1.667e-5", "s": (10, 25, 50, 100, 200, 300, 370), "lines": "L1441-1454"},
    "table-5": {"dataset": "CIFAR10", "n": 50_000, "k_total": 350_000, "epsilon": "0.50102", "sigma": "6.572",
                "delta": "2e-5", "s": (10, 25, 50, 100, 300, 500, 689), "lines": "L1465-1478"},
}

#: Tables 6-8: rows (epsilon label, sigma, s, line); the table's (N, K, delta) and its first line.
BUDGET_TABLES = {
    6: {"n": 10_000, "k_total": 50_000, "delta": "0.0001", "lines": "L1516-1524", "rows": (
        ("0.04945", "19.29962", 26, "L1519"), ("0.1", "13.06742", 55, "L1520"), ("0.25", "8.59143", 103, "L1521"),
        ("0.5", "6.05868", 168, "L1522"), ("1.0", "4.27273", 265, "L1523"), ("2.0", "3.03241", 400, "L1524"))},
    7: {"n": 60_000, "k_total": 360_000, "delta": "1.667e-5", "lines": "L1548-1557", "rows": (
        ("0.15007", "12.10881", 370, "L1551"), ("0.2", "10.48452", 460, "L1552"), ("0.25", "9.37379", 543, "L1553"),
        ("0.5", "6.63120", 889, "L1554"), ("0.75", "5.41887", 1168, "L1555"), ("1.0", "4.69244", 1409, "L1556"),
        ("2.0", "3.31648", 2159, "L1557"))},
    8: {"n": 50_000, "k_total": 350_000, "delta": "2.0e-5", "lines": "L1563-1572", "rows": (
        ("0.25", "9.29838", 417, "L1566"), ("0.5", "6.57192", 689, "L1567"), ("0.75", "5.36937", 909, "L1568"),
        ("1.0", "4.65014", 1099, "L1569"), ("1.5", "4.16111", 1267, "L1570"), ("2.0", "3.28831", 1690, "L1571"),
        ("3.0", "2.68273", 1994, "L1572"))},
}

#: Tables 9-11 (L1600-1622): the D.4 calculator's inputs (caption) and printed cells (T_min column,
#: T_min,asym column). delta = 1/N and theta = 1 per the captions.
CALCULATOR_TABLES = {
    9: {"inputs": {"sigma": "19.29962", "n": 10_000, "k": 5, "theta": 1}, "caption": "L1606",
        "cells": {"s": ("26", "198", "L1601"), "epsilon_target": ("0.0497", "0.0497", "L1602"),
                  "epsilon_fdp": ("0.0105", "0.0533", "L1603"), "factor": ("4.7234", "0.9328", "L1604")}},
    10: {"inputs": {"sigma": "12.10881", "n": 60_000, "k": 6, "theta": 1}, "caption": "L1614",
         "cells": {"s": ("288", "3042", "L1609"), "epsilon_target": ("0.1521", "0.1521", "L1610"),
                   "epsilon_fdp": ("0.0389", "0.2097", "L1611"), "factor": ("3.9147", "0.7257", "L1612")}},
    11: {"inputs": {"sigma": "6.572", "n": 50_000, "k": 7, "theta": 1}, "caption": "L1622",
         "cells": {"s": ("406", "7504", "L1617"), "epsilon_target": ("0.5253", "0.5253", "L1618"),
                   "epsilon_fdp": ("0.1133", "0.8239", "L1619"), "factor": ("4.6372", "0.6376", "L1620")}},
}

#: the GDP delta curve (64) as printed (L1166): a formula, kept as text for the report (not a number, so not a
#: Printed value; the claim 002.appC.gdp-delta-formula checks it)
PRINTED_64 = (r"\delta(\epsilon) = \Phi(-\epsilon/\mu + \mu/2) - e^{\epsilon}\Phi(-\epsilon/\mu - \mu/2)",
              "L1166")
