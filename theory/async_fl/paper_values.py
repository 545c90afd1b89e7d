"""Values printed in seed 000 (000_d613b97385d90362.txt) that the privacy claims compare against.

Every number is a :class:`theory.printed.Printed` ``(text, line)``: an INPUT to compare with, never an expected
output of our code. The text is copied digit for digit so that :func:`theory.ledger.printed_tolerance` can
derive the tolerance from the number of printed digits; ``tests/test_paper_values.py`` checks it stands on its
line. Printed *expressions* that are not numbers (``"1/e"``, ``"8*36^2"``) stay plain ``(text, line)`` pairs.
"""
from __future__ import annotations

from theory.printed import Printed

SEED = "000_d613b97385d90362.txt"

#: constants of Theorem 3.2 / D.3 and the r0(sigma) discussion.
PRINTED = {
    "r0_sigma3_p1": Printed("0.0110", "L1338"),
    "r0_sigma5_p1": Printed("0.0202", "L1338"),
    "r0_sigma8_p1": Printed("0.0247", "L1702"),
    "sigma_threshold": Printed("1.137", "L196"),
    # the same threshold where the r0 iteration states it (L1330-1336)
    "sigma_threshold_r0": Printed("1.137", "L1336"),
    "c121": Printed("1.21", "L1162"),
    "factor_4.14": Printed("4.14", "L1478"),
    "k_1.53": Printed("1.53", "L1484"),
    "r_coefficient_0.37": Printed("0.37", "L1257"),
    "ratio_interval_low": Printed("0.73", "L1312"),
    "ratio_interval_high": Printed("0.81", "L1312"),
    # main-text headline example (L220), the same setting as example 3
    "main_T": Printed("195", "L220"),
    "main_budget": Printed("5.78", "L220"),
    "main_delta": Printed("5.5e-8", "L220"),
    "main_rounds_constant": Printed("1563", "L220"),
    "main_round_ratio": Printed("0.12", "L220"),
    "main_noise_constant": Printed("229", "L220"),
    "main_noise_increasing": Printed("112", "L220"),
    "main_slope": Printed("1.322", "L220"),
    # Figure 1b's sequence as the main text prints it (L234), against L220 and Example 3 (L1682)
    "fig1b_slope": Printed("1.348", "L234"),
    "fig1b_offset": Printed("16", "L234"),
    # L1782: "q <= (0.214/5)^3 = 0.00007578229244195698" (0.214 is a printed rounding of 0.21158875536302124)
    "l1782_coefficient": Printed("0.214", "L1782"),
}

#: worked examples of D.3.2 (L1504-1806). ``inputs`` are the example's chosen settings, ``printed`` the
#: constants the paper computes from them (in the order it computes them). ``sigma_constant`` is the
#: noise the paper gives the constant-s_{0,c} baseline in its aggregated-noise product sqrt(rounds) * sigma
#: (example 4 chooses sigma = 3, L1744; the others use the example's budget, rounded).
EXAMPLES = {
    1: {
        "lines": "L1504-1566",
        "inputs": {"s0": Printed("16", "L1506"), "n_c": Printed("50000", "L1506"), "epsilon": Printed("2", "L1508"), "p": Printed("1", "L1508"),
                   "sigma": Printed("3", "L1518"), "r0": Printed("0.0110", "L1518"), "epochs": Printed("100", "L1518"),
                   "sigma_constant": Printed("1.98", "L1566")},
        "printed": {
            "B": Printed("0.5321797270231777", "L1510"),
            "K_minus_coefficient": Printed("0.8447826585127415", "L1514"),
            "q_K_minus": Printed("0.0000006028856829700258", "L1520"),
            "q_K_star": Printed("0.0000000672222222222222", "L1524"),
            "m": Printed("4760.330578512398", "L1532"),
            "T": Printed("54546", "L1536"),
            "m_over_T": Printed("0.08727185455418175", "L1540"),
            "factor": Printed("1.5222584705194226", "L1544"),
            "budget": Printed("1.9707559905883425", "L1548"),
            "delta": Printed("0.020570872204539764", "L1552"),
            "n_c_delta": Printed("1029", "L1554"),
            "epsilon_second": Printed("6", "L1556"),  # text says "increase to 8" (L1554), then "for epsilon=6"
            "delta_second": Printed("0.0000000634577338911708", "L1556"),
            "n_c_delta_second": Printed("0.00317288669455854", "L1558"),
            "final_slope": Printed("0.0039733713991774566", "L1562"),
            "final_m": Printed("4026.8070594438323", "L1562"),
            "final_T": Printed("50168", "L1564"),
            "increment_every": Printed("252", "L1564"),
            "rounds_constant": Printed("312500", "L1566"),
            "round_reduction": Printed("6.23", "L1566"),
            "budget_constant": Printed("1.98", "L1566"),
            "noise_constant": Printed("1107", "L1566"),
            "noise_increasing": Printed("672", "L1566"),
        },
    },
    2: {
        "lines": "L1568-1616",
        "inputs": {"s0": Printed("16", "L1570"), "n_c": Printed("10000", "L1570"), "epsilon": Printed("2", "L1572"), "p": Printed("1", "L1572"),
                   "sigma": Printed("5", "L1584"), "r0": Printed("0.0202", "L1584"), "epochs": Printed("10", "L1584")},
        "printed": {
            "B": Printed("0.5321797270231777", "L1574"),
            "K_minus_coefficient": Printed("0.8447826585127415", "L1580"),
            "q_K_star": Printed("0.0000008160800000000002", "L1590"),
            "K_minus_coefficient_rounded": Printed("0.845", "L1594"),  # the coefficient as the text rounds it
            "q_K_minus": Printed("0.0006033511249999998", "L1598"),  # computed from the rounded coefficient 0.845 (L1594)
            "m": Printed("1960.5920988138412", "L1602"),
            "T": Printed("4951", "L1606"),
            "m_over_T": Printed("0.39599921204076777", "L1610"),
            "factor": Printed("5.31257308281", "L1614"),  # uses m/T rounded to 0.40 (L1614)
        },
    },
    3: {
        "lines": "L1618-1684",
        "inputs": {"s0": Printed("16", "L1620"), "n_c": Printed("10000", "L1620"), "epsilon": Printed("1", "L1622"), "p": Printed("1", "L1622"),
                   "sigma": Printed("8", "L1626"), "r0": ("1/e", "L1626"), "epochs": Printed("2.5", "L1634"),
                   "sigma_constant": Printed("5.78", "L1684")},
        "printed": {
            "u1": Printed("0.15275204077456322", "L1626"),
            "u0": Printed("0.4495546831835495", "L1626"),
            "r": Printed("5.7460446671129635", "L1626"),
            "K_star_coefficient": Printed("0.0010573069002860367", "L1628"),
            "B_gamma0": Printed("0.1368988621622339", "L1632"),
            "q_K_star": Printed("0.0004229227601144147", "L1636"),
            "q_K_minus": Printed("0.00016420239582699232", "L1640"),
            "m": Printed("9.744072197861225", "L1648"),
            "T": Printed("175", "L1652"),
            "m_over_T": Printed("0.055680412559207", "L1656"),
            "B_iter1": Printed("0.12819685818649007", "L1660"),
            "q_iter1": Printed("0.00013483794319482493", "L1660"),
            "m_iter1": Printed("11.86609616024911", "L1660"),
            "T_iter1": Printed("193", "L1660"),
            "m_over_T_iter1": Printed("0.061482363524606794", "L1660"),
            "B_iter2": Printed("0.12734354695486969", "L1662"),
            "q_iter2": Printed("0.00013216327772100012", "L1662"),
            "m_iter2": Printed("12.106237281566509", "L1662"),
            "T_iter2": Printed("195", "L1662"),
            "m_over_T_iter2": Printed("0.06208326811059748", "L1662"),
            "factor": Printed("1.38361486085", "L1670"),
            "budget": Printed("5.78195582192962", "L1674"),
            "delta": Printed("5.502343985212556e-8", "L1678"),
            "slope": Printed("1.3216327772100012", "L1682"),
            "rounds_constant": Printed("1563", "L1684"),
            "round_reduction": Printed("8.02", "L1684"),
            "budget_constant": Printed("5.80", "L1684"),
            "noise_constant": Printed("229", "L1684"),
            "noise_increasing": Printed("112", "L1684"),
            "noise_increasing_T": Printed("193", "L1684"),
        },
    },
    4: {
        "lines": "L1686-1744",
        "inputs": {"s0": Printed("16", "L1688"), "n_c": Printed("25000", "L1688"), "epsilon": Printed("2", "L1690"), "p": Printed("1", "L1690"),
                   "sigma": Printed("8", "L1702"), "r0": Printed("0.0247", "L1702"), "epochs": Printed("5", "L1702"),
                   "sigma_constant": Printed("3", "L1744")},
        "printed": {
            "B": Printed("0.5321797270231777", "L1692"),
            "K_minus_coefficient": Printed("0.8447826585127415", "L1698"),
            "q_K_star": Printed("0.000000953265625", "L1704"),
            "q_K_minus": Printed("0.00482308546", "L1708"),
            "m": Printed("671.376354308", "L1716"),
            "T": Printed("3239", "L1720"),
            "m_over_T": Printed("0.20727889913", "L1724"),
            "factor": Printed("2.57106713", "L1728"),
            "budget": Printed("3.11154847209", "L1732"),
            "delta": Printed("0.00006241319203188485", "L1736"),
            "n_c_delta": Printed("1.5603298007971211", "L1738"),
            "slope": Printed("0.023831640625", "L1740"),
            "rounds_constant": Printed("7813", "L1744"),
            "round_reduction": Printed("2.41", "L1744"),
            "noise_increasing": Printed("455", "L1744"),
            "noise_constant": Printed("265", "L1744"),
        },
    },
    5: {
        "lines": "L1746-1806",
        "inputs": {"s0": Printed("16", "L1688"), "n_c": Printed("25000", "L1688"), "epsilon": Printed("2", "L1754"), "p": Printed("1", "L1690"),
                   "sigma": Printed("8", "L1748"), "r0": ("1/e", "L1748"), "epochs": Printed("5", "L1702"),
                   "sigma_constant": Printed("6.96", "L1806")},
        "printed": {
            "u1": Printed("0.15275204077456322", "L1748"),
            "u0": Printed("0.4495546831835495", "L1748"),
            "r": Printed("5.7460446671129635", "L1748"),
            "K_star_coefficient": Printed("0.0010573069002860367", "L1750"),
            "K_minus_coefficient": Printed("0.21731339780957962", "L1754"),
            "q_K_star": Printed("0.00021146138005720736", "L1758"),
            "q_K_minus": Printed("0.00008210119791349613", "L1762"),
            "m": Printed("7.795257758288984", "L1770"),
            "T": Printed("349", "L1774"),
            "m_over_T": Printed("0.022335982115441216", "L1778"),
            "B_iter1": Printed("0.13329256340146362", "L1782"),
            "K_minus_coefficient_iter1": Printed("0.21158875536302124", "L1782"),
            "q_iter1": Printed("0.00007578229244195698", "L1782"),  # computed as (0.214/5)^3
            "m_iter1": Printed("8.445244652504904", "L1782"),
            "T_iter1": Printed("364", "L1782"),
            "m_over_T_iter1": Printed("0.02320122157281567", "L1782"),
            "B_iter2": Printed("0.133", "L1784"),
            "K_minus_coefficient_iter2": Printed("0.21137208415301048", "L1784"),
            "q_iter2": Printed("0.00007554972", "L1784"),
            "m_iter2": Printed("8.471242187728482", "L1784"),
            "T_iter2": Printed("364", "L1784"),
            "m_over_T_iter2": Printed("0.023272643372880444", "L1784"),
            "factor": Printed("1.1486274762710156", "L1790"),
            "budget": Printed("6.964834261123335", "L1794"),
            "delta": Printed("8.56732681988984e-22", "L1798"),
            "slope": Printed("1.8887430727901684", "L1804"),
            "rounds_constant": Printed("7813", "L1806"),
            "round_ratio": Printed("0.047", "L1806"),
            "rounds_increasing": Printed("365", "L1806"),
            "noise_constant": Printed("615", "L1806"),
            "noise_increasing": Printed("153", "L1806"),
        },
    },
}

#: Table 3 (L1853-L1857): total iterations over 5 clients, per-client constant sizes, printed rounds.
TABLE3_PRINTED = {"K": Printed("20000", "L1853"), "clients": Printed("5", "L1853"),
                  "sizes": tuple(Printed(x, "L1856") for x in ("50", "100", "200", "500", "700", "1000")),
                  "rounds": tuple(Printed(x, "L1857") for x in ("80", "40", "20", "8", "6", "4"))}
#: L733: "s_0 = 50 corresponds to m = 2(d+1) * 1450".
L733_PRINTED = {"s0": Printed("50", "L733"), "m_over_2d_plus_2": Printed("1450", "L733")}
#: Example 3's final q (L1662) and the printed sequence coefficient (L1682); s_{0,c} = 16, N_c = 10,000 (L1620).
EXAMPLE3_PRINTED = {"q": Printed("0.00013216327772100012", "L1662"), "m": Printed("12.106237281566509", "L1662"),
                    "coef": Printed("1.3216327772100012", "L1682"), "s0": Printed("16", "L1682"),
                    "N_c": Printed("10000", "L1620")}
#: Appendix E's rounded parameters (L1967) and the sequence it prints from them.
#: Fig 1a (L226): communication rounds of the constant (eta, s) scheme and of diminishing steps with linear s.
FIG1A_ROUNDS = {"constant": Printed("20", "L226"), "linear": Printed("9", "L226")}
EXPERIMENT_PRINTED = {"q": Printed("0.000132", "L1967"), "m": Printed("12.106", "L1967"), "p": Printed("1.0", "L1967"),
                      "N_c": Printed("10000", "L1967"), "coef": Printed("1.322", "L1967"),
                      "offset": Printed("16", "L1967"), "K": Printed("25000", "L1967"),
                      "sigma": Printed("8.0", "L1967"), "delta": Printed("5.5e-8", "L1967")}
#: the printed bound alpha = a_1 <= 36 of C.2.2 (L735).
A1_C22_PRINTED = Printed("36", "L735")
#: L756: lower bound (1/2) N/mu^2 (1/t) and the printed factors (the constants are expressions, not numbers).
OPTIMALITY_PRINTED = {"factor": Printed("20736", "L756"), "lower_const": ("1/2", "L756"), "upper_const": ("8*36^2", "L754")}


#: Table 1's "# of clients" column (L1834-1836) and the client count the text gives for the biased/unbiased
#: convex experiment (Figure 10, L1941).
TABLE1_CLIENTS = {"strongly convex": Printed("5", "L1834"), "plain convex": Printed("5", "L1835"),
                  "non-convex": Printed("4", "L1836"), "figure10_clients": Printed("2", "L1941")}


#: Table 3 (L1858-1862): test accuracy per data set and model for the constant sizes of TABLE3_PRINTED["sizes"],
#: and the sizes L1864 names as giving "the best accuracy for strong convex, plain convex and non-convex cases".
TABLE3_ACCURACY = {
    "a9a strongly convex": tuple(Printed(x, "L1858") for x in ("0.8418", "0.8443", "0.8386", "0.8333", "0.8298", "0.7271")),
    "a9a plain convex": tuple(Printed(x, "L1859") for x in ("0.8409", "0.8415", "0.8417", "0.8299", "0.8346", "0.7276")),
    "covtype strongly convex": tuple(Printed(x, "L1860") for x in ("0.8429", "0.8402", "0.8408", "0.8360", "0.8278", "0.7827")),
    "covtype plain convex": tuple(Printed(x, "L1861") for x in ("0.8421", "0.8438", "0.8404", "0.8381", "0.8379", "0.7287")),
    "mnist non-convex": tuple(Printed(x, "L1862") for x in ("0.9450", "0.9470", "0.9180", "0.8740", "0.8700", "0.7080")),
}
TABLE3_BEST_SIZES = (Printed("100", "L1864"), Printed("200", "L1864"))

#: the exponent of ((p+1)K/(qN_c)) with which the smallest provable sqrt(T) sigma "varies" for p <= p^-: the main
#: text (L206) and the end of D.3's discussion (L1162) print 1/(1+2p); the display it summarises (L1156) 1/(2+2p).
#: Printed expressions, not numbers: plain (text, line) pairs.
AGGREGATED_NOISE_EXPONENT = {"main_text": ("1/(1+2p)", "L206"), "d3_summary": ("1/(1+2p)", "L1162"),
                             "d3_display": ("1/(2+2p)", "L1156")}
#: L1152: (1+gamma)^((3+4p)(1+p)/(1+2p)) <= (1+gamma)^(14/3) for p <= 1 (an expression).
A_OVER_B_EXPONENT_CAP = ("14/3", "L1152")

#: the paper's own standard for delta: "we want delta to be smaller than 1/(100*N_c)" (L1554); "N_c delta ... less
#: than 1" accepted (L1558); "delta preferably smaller than 1/|N_c|" (L208). Example 4's N_c delta (L1738) "fits somewhat".
DELTA_STANDARD = {"hundred": Printed("100", "L1554"), "one": Printed("1", "L1558")}
#: the range of r0 as each place states it (expressions): Theorem 3.1 in the main text (L182), its proof (L923),
#: Lemma D.1 (L840), Theorem D.3's (15) (L1073); Examples 3 and 5 take r0 = 1/e (EXAMPLES[3/5]["inputs"]["r0"]).
R0_RANGE = {"theorem_3.1": ("r0 < 1/e", "L182"), "proof_d2": ("r0 <= 1/e", "L923"), "lemma_d1": ("r0 < 1", "L840"),
            "theorem_d3_(15)": ("r0 <= 1/e", "L1073")}

#: Theorem D.3 case 1 (L1107, repeated at L1362-1366): "we can choose alpha =" this expression (sympy syntax; B is
#: B_{alpha=0}(p, r0, sigma), s = s_{0,c}/m^p), and the order the text draws from it (L1108, L1382; used at L1386).
CASE1_ALPHA_CHOICE = ("(1+gamma)**p*((p+1)*B)**(p/(1+p))*(1-alpha)**(-2*p/(1+2*p))*eps**(p/(1+2*p))*s/N_c", "L1107, L1362")
CASE1_ALPHA_ORDER = ("eps**(p/(1+2*p))*s/N_c", "L1108, L1382")
