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
#: largest FFT length of the PLD accountant (about 16 bytes x 6 per point at peak: 2**24 -> ~1.6 GB).
PLD_MAX_GRID_POINTS = 2 ** 24
#: relative tolerance for a value a paper computed in double precision and printed with 11-17 digits
#: (seed 000's worked examples): float64 round-off and the paper's reuse of its own printed, truncated
#: intermediates (e.g. 8/1.38361486085 at 000 L1674) move the last 6-7 of 17 digits.
PRINTED_FLOAT_RTOL = 1e-9
#: mass the PLD accountant may leave outside its grid (each side) when it bounds delta at a given eps.
PLD_DELTA_TAIL = 1e-18
#: relative resolution of sigma calibration (the returned sigma is within this factor of the smallest).
CALIBRATION_RTOL = 1e-4
#: working digits of log A inside an RDP -> (eps, delta) conversion: the answer is a double (~16
#: digits), so 20 digits leave 4 spare (numerics.conversions).
RDP_CONVERSION_DPS = 20
#: guard digits numerics.rdp adds to the caller's precision for its intermediate sums (and, for
#: fractional orders, on top of the digits lost to the cancellation in A - 1).
RDP_GUARD_DPS = 20
#: absolute width (upper - lower) of epsilon that the PLD accountant accepts whatever the relative width:
#: for epsilon near 0 a relative width is meaningless.
PLD_ABSOLUTE_WIDTH = 1e-8
#: relative width asked of the PLD accountant by checks that need only a certified upper bound with slack
#: (e.g. seed 002's theorem guarantees): a coarser grid than the default is sound and keeps very long
#: schedules within the grid budget.
COARSE_PLD_RELATIVE_WIDTH = 1e-2
#: absolute width (upper - lower) of delta that the PLD accountants accept whatever the relative width
#: (numerics.pld_general): a delta bracket is refined to a relative width or to this absolute one; when
#: it stops at the absolute one with a larger relative width, ``details["note"]`` says so (issue 29).
PLD_DELTA_ABSOLUTE_WIDTH = 1e-12
#: below this delta numerics.pld and numerics.pld_general compose the epsilon side with exponential tilting
#: (numerics.pld_tilted) straight away; above it they tilt only where the plain composition's proven
#: rounding bound (numerics.fft_rounding) would take more than a tenth of the target width.
TILT_BELOW_DELTA = 1e-8
#: below this delta Poisson replace-one epsilon is refused: numerics.pld now tilts below TILT_BELOW_DELTA and
#: bounds the FFT's rounding (issue 29), so this is the accountants' own floor (errors.ACCOUNTANT_DELTA_MIN).
POISSON_REPLACE_ONE_MIN_DELTA = 1e-15
#: unit roundoff of IEEE double precision (round to nearest): every rounding bound of the accountants
#: is stated in units of it (numerics.fft_rounding).
UNIT_ROUNDOFF = 2.0 ** -53
#: per bit of the transform length, the normwise relative rounding error of one scipy (pocketfft) FFT, in
#: units of UNIT_ROUNDOFF: Higham's radix-2 theorem gives about 6.7; the radix-3/4/5 passes about 8, 6 and
#: 11 (operation counts, numerics.fft_rounding); 24 leaves a factor 2 over the largest.
FFT_ROUNDOFF_PER_BIT = 24.0
#: working precision (bits) of the Arb balls and series that enclose the one-step grid masses of the Gaussian
#: pairs (numerics.enclose, numerics.pld_onestep): a narrow tail interval loses at most about 20 of them to
#: cancellation, so the enclosures stay far tighter than one double's rounding.
ARB_MASS_PREC = 80
#: working precision (bits) of the Arb balls that enclose numerics.knorm's bounds: its regularised incomplete
#: gamma functions are taken as 1 - Q on the left of the mean (Arb's P loses its accuracy there for large
#: shapes), an absolute error of about 2^-prec, and delta_GDP cancels a few digits; a ball still wider than
#: KNORM_ARB_RTOL of its value is recomputed at twice the precision (numerics.proven_ends.tight_end).
KNORM_ARB_PREC = 200
#: radius below which numerics.knorm accepts a ball without raising the precision (tightness only): relative
#: KNORM_ARB_RTOL of its value plus KNORM_ARB_ATOL, 25 orders below the smallest delta the CLI takes (1e-15),
#: so that a difference that cancels to about 0 (a threshold that gives nothing) is not recomputed in vain.
KNORM_ARB_RTOL = 1e-12
KNORM_ARB_ATOL = 1e-40

#: working precision (bits) of the analytic Gaussian profile's Arb balls (numerics.analytic_gaussian); doubled
#: while a ball is wider than ANALYTIC_ARB_RTOL of its value (the erfc difference cancels for small mu)
ANALYTIC_ARB_PREC = 128
ANALYTIC_ARB_RTOL = 1e-13
