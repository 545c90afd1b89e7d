"""Margins for the certifier's own tests (named as "module:qualname")."""


def log1p_below_x(x):
    """x - log1p(x) >= 0: true for x >= 0 (strictly positive for x > 0)."""
    return x - x.log1p()


def sin_below_half(x):
    """0.5 - sin(x) > 0: false near x = pi/2 (a deliberately wrong claim on [0, 3])."""
    return 0.5 - x.sin()


def product_bound(x, y, n):
    """n + x*y - x - y >= 0 on [0,1]^2 for n >= 2, with margin >= n - 1 > 0 (since (1-x)(1-y) >= 0 gives x + y - x*y <= 1)."""
    return n + x * y - x - y


def only_above_diagonal(x, y, n):
    """Hypothesis y >= x (a region that is not a box)."""
    return [y - x]


def refuted_below_diagonal(x, y, n):
    """y - x - 0.5 + n*0 > 0 fails where y is close to x; inside the region y >= x."""
    return y - x - 0.5
