"""High-precision, certified privacy accountants: Poisson, fixed-size, with-replacement and full-batch
sampling with Gaussian, Laplace or l2 K-norm noise (``numerics.epsilon`` / ``numerics.delta``).

Imports nothing else of this suite (the import direction is numerics <- repro <- theory <- figures).
"""
from .accounting import delta, epsilon
from .errors import InvalidParameter
from .results import DeltaBounds, EpsilonBounds
from .schedule import Phase, Schedule

__version__ = "0.1.0"

__all__ = ["InvalidParameter", "Phase", "Schedule", "EpsilonBounds", "DeltaBounds", "epsilon", "delta",
           "__version__"]
