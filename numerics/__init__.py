"""High-precision privacy accountants for the Poisson-subsampled Gaussian mechanism.

Imports nothing else of this suite (the import direction is numerics <- repro <- theory <- figures).
"""
from .errors import InvalidParameter
from .schedule import Phase, Schedule
from .results import DeltaBounds, EpsilonBounds

__all__ = ["InvalidParameter", "Phase", "Schedule", "EpsilonBounds", "DeltaBounds"]
