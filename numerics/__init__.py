"""High-precision, certified privacy accountants: Poisson, fixed-size, with-replacement and full-batch
sampling with Gaussian, Laplace or l2 K-norm noise (``numerics.epsilon`` / ``numerics.delta``).

Imports nothing else of this suite (the import direction is numerics <- repro <- theory <- figures).

The names below are served on first use (PEP 562 ``__getattr__``), so importing a submodule such as
``numerics.sweep`` or ``numerics.errors`` loads no accountant, and a module that imports only those is not
keyed by the accountants' sources (``numerics.sweep.closure`` reads ``_EXPORTS``; a test keeps every
package ``__init__`` of the suite inert: it runs no suite code when imported).
"""
import importlib

__version__ = "0.1.0"

#: public name -> the submodule defining it
_EXPORTS = {"epsilon": "accounting", "delta": "accounting", "InvalidParameter": "errors",
            "DeltaBounds": "results", "EpsilonBounds": "results", "Phase": "schedule", "Schedule": "schedule"}

__all__ = ["InvalidParameter", "Phase", "Schedule", "EpsilonBounds", "DeltaBounds", "epsilon", "delta",
           "__version__"]


def __getattr__(name):
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value  # served once; later lookups find it without __getattr__
    return value


def __dir__():
    return sorted(set(globals()) | set(_EXPORTS))
