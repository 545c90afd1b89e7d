"""Precision and tolerances, stated in one place.

Every module that needs a working precision or a tolerance imports it from here, so a reader finds
all of the suite's numerical choices on one page.
"""
from __future__ import annotations

#: mpmath working precision (decimal digits) for exact log-moments and proof-step checks.
MP_DPS = 50
#: higher precision used by oracles (quadrature) that the default precision is checked against.
MP_DPS_ORACLE = 80
#: default certified relative width of the PLD accountant: (upper - lower) / upper.
PLD_RELATIVE_WIDTH = 1e-3
#: relative tolerance when a computed value is compared with a value printed in a paper
#: (papers print 3-5 significant digits; this is the rounding of their last printed digit, see helpers
#: in theory.ledger which use the printed digit count instead where it is known).
PRINTED_RTOL = 5e-4
#: Renyi orders used by RDP -> (eps, delta) conversions when the caller gives none.
DEFAULT_RDP_ORDERS = tuple([1.0 + x / 10.0 for x in range(1, 100)]
                           + list(range(11, 64)) + [64, 80, 96, 128, 160, 192, 256, 320, 384, 512, 768, 1024])
