"""Inputs users already have, turned into a Schedule: dp_accounting DpEvents and Opacus histories.

* An Opacus accountant's ``history``: ``[(noise_multiplier, sample_rate, steps), ...]``: Poisson
  Gaussian phases (Opacus's RDP/PRV accountants assume Poisson sampling).
* A dp_accounting ``DpEvent`` (imported lazily: dp_accounting is an optional peer): ``GaussianDpEvent``
  and ``LaplaceDpEvent`` (one full-batch step; dp_accounting's noise_multiplier is noise / sensitivity,
  our sigma), ``PoissonSampledDpEvent``, ``SampledWithoutReplacementDpEvent`` (fixed-size),
  ``SampledWithReplacementDpEvent`` of either, ``SelfComposedDpEvent`` and ``ComposedDpEvent`` of
  these. Anything else is refused in one line. DpEvents carry no adjacency; it is an argument.
"""
from __future__ import annotations

import numbers

from .errors import InvalidParameter
from .schedule import ADJACENCIES, Phase, Schedule


def to_schedule(x, adjacency: str | None = None) -> Schedule:
    if isinstance(x, Schedule):
        if adjacency is not None and adjacency != x.adjacency:
            raise InvalidParameter(f"adjacency {adjacency!r} given for a schedule whose adjacency is {x.adjacency!r}")
        return x
    adjacency = adjacency or "add-remove"
    if adjacency not in ADJACENCIES:
        raise InvalidParameter(f"adjacency must be one of {ADJACENCIES}, got {adjacency!r}")
    if isinstance(x, (list, tuple)):
        return Schedule(tuple(_history_phase(item) for item in x), adjacency)
    if type(x).__module__.startswith("dp_accounting"):
        return Schedule(tuple(_event_phases(x)), adjacency)
    raise InvalidParameter(f"expected a Schedule, a dp_accounting DpEvent or a list of (noise_multiplier, "
                           f"sample_rate, steps), got {type(x).__name__}")


def _history_phase(item) -> Phase:
    if not (isinstance(item, (list, tuple)) and len(item) == 3
            and all(isinstance(v, numbers.Real) for v in item)):
        raise InvalidParameter(f"a history entry must be (noise_multiplier, sample_rate, steps), got {item!r}")
    sigma, q, steps = item
    return Phase(q, sigma, steps)


def _noise(event):
    import dp_accounting as dpa
    if isinstance(event, dpa.GaussianDpEvent):
        return "gaussian", event.noise_multiplier
    if isinstance(event, dpa.LaplaceDpEvent):
        return "laplace", event.noise_multiplier
    raise InvalidParameter(f"unsupported DpEvent inside sampling: {type(event).__name__} (Gaussian or Laplace only)")


def _event_phases(event, count: int = 1):
    import dp_accounting as dpa
    if isinstance(event, dpa.SelfComposedDpEvent):
        return _event_phases(event.event, count * event.count)
    if isinstance(event, dpa.ComposedDpEvent):
        return [p for e in event.events for p in _event_phases(e, 1)] * count
    if isinstance(event, (dpa.GaussianDpEvent, dpa.LaplaceDpEvent)):
        noise, sigma = _noise(event)
        return [Phase.full_batch(sigma=sigma, steps=count, noise=noise)]
    if isinstance(event, dpa.PoissonSampledDpEvent):
        noise, sigma = _noise(event.event)
        return [Phase(event.sampling_probability, sigma, count, noise=noise)]
    if isinstance(event, dpa.SampledWithoutReplacementDpEvent):
        noise, sigma = _noise(event.event)
        return [Phase.fixed_size(batch_size=event.sample_size, dataset_size=event.source_dataset_size,
                                 sigma=sigma, steps=count, noise=noise)]
    if isinstance(event, dpa.SampledWithReplacementDpEvent):
        noise, sigma = _noise(event.event)
        return [Phase.with_replacement(batch_size=event.sample_size, dataset_size=event.source_dataset_size,
                                       sigma=sigma, steps=count, noise=noise)]
    raise InvalidParameter(f"unsupported DpEvent: {type(event).__name__}")
