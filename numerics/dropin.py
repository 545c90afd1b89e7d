"""Drop-in accountants: the certified accountant behind the interfaces users' training code already calls.

* :class:`CertifiedPrivacyAccountant`: a dp_accounting ``PrivacyAccountant`` (``supports``, ``compose``
  of DpEvents, ``get_epsilon`` / ``get_delta``). Events: ``NoOpDpEvent``, ``NonPrivateDpEvent``,
  ``GaussianDpEvent`` and ``LaplaceDpEvent`` (one full-batch step), ``PoissonSampledDpEvent``,
  ``SampledWithoutReplacementDpEvent`` (fixed-size batches), ``SampledWithReplacementDpEvent`` of
  either noise, and ``SelfComposedDpEvent`` / ``ComposedDpEvent`` of these (numerics.adapters reads
  them). ``get_epsilon`` and ``get_delta`` return the certified UPPER end (what a guarantee may
  state); :meth:`CertifiedPrivacyAccountant.epsilon_bounds` the two-sided bracket.
  Neighbouring relation: ``ADD_OR_REMOVE_ONE`` (add-remove) or ``REPLACE_ONE`` (replace-one).
* :class:`OpacusAccountant`: the interface of Opacus's ``IAccountant`` (``step(noise_multiplier=,
  sample_rate=)``, ``get_epsilon(delta)``, ``history`` as ``[(noise_multiplier, sample_rate, steps)]``,
  ``mechanism()``, ``__len__``, ``get_optimizer_hook_fn``, ``state_dict`` / ``load_state_dict``), written
  without importing Opacus (or torch), so a ``PrivacyEngine`` can use it in place of its own
  (``engine.accountant = OpacusAccountant()`` before ``make_private``). Opacus's accountants assume
  Poisson sampling; this one can be told what the data loader does instead: ``sampling="fixed-size"``
  (``dataset_size=`` n; the batch is sample_rate * n, which must be an integer),
  ``"with-replacement"`` or ``"shuffled"`` (a DataLoader with ``shuffle=True``: each epoch a random
  permutation cut into ceil(n/b) batches; accounted under ``adjacency="replace-one"`` only, the
  relation numerics.shuffled proves its bound for).

Neither imports dp_accounting or Opacus at module level: dp_accounting is imported when the first
class is created (it is its base class), Opacus never.
"""
from __future__ import annotations

import math
from collections import OrderedDict

from .errors import InvalidParameter, check_epsilon
from .schedule import Phase, Schedule


def _accounting():
    from . import accounting
    return accounting


# --- dp_accounting ------------------------------------------------------------------------------------

def _relation_name(relation) -> str:
    name = getattr(relation, "name", str(relation))
    if name == "ADD_OR_REMOVE_ONE":
        return "add-remove"
    if name == "REPLACE_ONE":
        return "replace-one"
    raise InvalidParameter(f"neighboring_relation must be ADD_OR_REMOVE_ONE or REPLACE_ONE, got {name}")


def _make_dp_accounting_class():
    import dp_accounting
    from dp_accounting import dp_event
    from dp_accounting.privacy_accountant import NeighboringRelation, PrivacyAccountant

    from .adapters import _event_phases

    class CertifiedPrivacyAccountant(PrivacyAccountant):
        """dp_accounting PrivacyAccountant on numerics.epsilon / numerics.delta (module docstring)."""

        def __init__(self, neighboring_relation=NeighboringRelation.ADD_OR_REMOVE_ONE, rel_width=None):
            super().__init__(neighboring_relation)
            self._adjacency = _relation_name(neighboring_relation)
            self._rel_width = rel_width
            self._phases: list = []
            self._non_private = False

        def _maybe_compose(self, event, count, do_compose):
            error = self.CompositionErrorDetails
            if isinstance(event, dp_event.NoOpDpEvent):
                return None
            if isinstance(event, dp_event.NonPrivateDpEvent):
                if do_compose:
                    self._non_private = True
                return None
            if isinstance(event, dp_event.SelfComposedDpEvent):
                return self._maybe_compose(event.event, count * event.count, do_compose)
            if isinstance(event, dp_event.ComposedDpEvent):
                for sub in event.events:
                    failed = self._maybe_compose(sub, count, do_compose)
                    if failed is not None:
                        return failed
                return None
            kinds = (dp_accounting.GaussianDpEvent, dp_accounting.LaplaceDpEvent, dp_accounting.PoissonSampledDpEvent,
                     dp_accounting.SampledWithoutReplacementDpEvent, dp_accounting.SampledWithReplacementDpEvent)
            if not isinstance(event, kinds):
                return error(event, f"{type(event).__name__} is not supported by numerics.epsilon")
            try:  # count 0 (supports()) still validates the event's parameters, on one step
                phases = _event_phases(event, max(count, 1))
                Schedule(tuple(phases), self._adjacency)
                for p in phases:  # refuses a combination without a dominating pair (e.g. Poisson Laplace replace-one)
                    _accounting().lookup(p, self._adjacency)
            except InvalidParameter as exc:
                return error(event, str(exc))
            if do_compose and count > 0:
                self._phases.extend(phases)
            return None

        def _schedule(self):
            return Schedule(tuple(self._phases), self._adjacency) if self._phases else None

        def epsilon_bounds(self, target_delta: float):
            """The certified bracket (EpsilonBounds) of everything composed so far (None if nothing)."""
            schedule = self._schedule()
            return None if schedule is None else _accounting().epsilon(schedule, target_delta, rel_width=self._rel_width)

        def delta_bounds(self, target_epsilon: float):
            schedule = self._schedule()
            return None if schedule is None else _accounting().delta(schedule, target_epsilon, rel_width=self._rel_width)

        def get_epsilon(self, target_delta: float) -> float:
            """Certified upper bound on epsilon at ``target_delta`` (inf after a NonPrivateDpEvent; 0 for
            nothing composed or delta >= 1; inf at delta 0 for any noisy step)."""
            if self._non_private:
                return math.inf
            if not self._phases or target_delta >= 1:
                return 0.0
            if target_delta <= 0:
                return math.inf
            return float(self.epsilon_bounds(target_delta).epsilon_upper)

        def get_delta(self, target_epsilon: float) -> float:
            """Certified upper bound on delta at ``target_epsilon`` (1 after a NonPrivateDpEvent)."""
            if self._non_private:
                return 1.0
            if not self._phases or target_epsilon == math.inf:
                return 0.0
            return float(self.delta_bounds(check_epsilon(target_epsilon)).delta_upper)

    return CertifiedPrivacyAccountant


_CLASSES: dict = {}


def __getattr__(name):
    """``numerics.dropin.CertifiedPrivacyAccountant`` is built on first use (its base class is
    dp_accounting's, an optional peer)."""
    if name == "CertifiedPrivacyAccountant":
        if name not in _CLASSES:
            _CLASSES[name] = _make_dp_accounting_class()
        return _CLASSES[name]
    raise AttributeError(name)


# --- Opacus --------------------------------------------------------------------------------------------

class OpacusAccountant:
    """Opacus ``IAccountant`` interface on the certified accountant (module docstring).

    ``history`` is Opacus's: ``[(noise_multiplier, sample_rate, steps), ...]``, consecutive equal steps
    merged. ``get_epsilon(delta)`` is the certified upper end; ``get_epsilon_bounds(delta)`` the bracket.
    """

    def __init__(self, sampling: str = "poisson", dataset_size: int | None = None, adjacency: str = "add-remove",
                 rel_width: float | None = None):
        if sampling not in ("poisson", "fixed-size", "with-replacement", "shuffled"):
            raise InvalidParameter(f"sampling must be one of poisson, fixed-size, with-replacement, shuffled, "
                                   f"got {sampling!r}")
        if sampling == "shuffled" and adjacency != "replace-one":
            raise InvalidParameter("shuffled sampling is accounted under adjacency='replace-one' only (under "
                                   "add-remove the neighbour's batch boundaries shift; no proven bound)")
        if sampling != "poisson" and dataset_size is None:
            raise InvalidParameter(f"{sampling} sampling needs dataset_size (the batch is sample_rate * dataset_size)")
        self.sampling, self.dataset_size, self.adjacency, self.rel_width = sampling, dataset_size, adjacency, rel_width
        self.history: list = []
        Schedule((self._phase(1.0, 1.0 if sampling == "poisson" else 1.0 / dataset_size, 1),), adjacency)  # validate

    @classmethod
    def mechanism(cls) -> str:
        return "dpverify-certified"

    def _phase(self, noise_multiplier, sample_rate, steps) -> Phase:
        if self.sampling == "poisson":
            return Phase(sample_rate, noise_multiplier, steps)
        return Phase(sample_rate, noise_multiplier, steps, self.sampling, dataset_size=self.dataset_size)

    def step(self, *, noise_multiplier: float, sample_rate: float):
        """One optimizer step (validated now: a bad value is refused here, not at get_epsilon)."""
        self._phase(noise_multiplier, sample_rate, 1)
        if self.history and self.history[-1][:2] == (noise_multiplier, sample_rate):
            nm, sr, steps = self.history[-1]
            self.history[-1] = (nm, sr, steps + 1)
        else:
            self.history.append((noise_multiplier, sample_rate, 1))

    def __len__(self) -> int:
        return sum(steps for _, _, steps in self.history)

    def schedule(self) -> Schedule:
        return Schedule(tuple(self._phase(nm, sr, t) for nm, sr, t in self.history), self.adjacency)

    def get_epsilon_bounds(self, delta: float):
        return _accounting().epsilon(self.schedule(), delta, rel_width=self.rel_width)

    def get_epsilon(self, delta: float, *args, **kwargs) -> float:
        """Certified upper bound on epsilon at ``delta`` (0 before the first step)."""
        if not self.history:
            return 0.0
        return float(self.get_epsilon_bounds(delta).epsilon_upper)

    def get_optimizer_hook_fn(self, sample_rate: float):
        """What Opacus's PrivacyEngine attaches to the DPOptimizer: one step per optimizer step."""
        def hook_fn(optim):
            self.step(noise_multiplier=optim.noise_multiplier,
                      sample_rate=sample_rate * getattr(optim, "accumulated_iterations", 1))
        return hook_fn

    def state_dict(self, destination=None):
        destination = OrderedDict() if destination is None else destination
        destination["history"] = list(self.history)
        destination["mechanism"] = self.mechanism()
        destination["sampling"] = {"sampling": self.sampling, "dataset_size": self.dataset_size,
                                   "adjacency": self.adjacency}
        return destination

    def load_state_dict(self, state_dict):
        if not state_dict or "history" not in state_dict or "mechanism" not in state_dict:
            raise ValueError("state_dict needs the keys 'history' and 'mechanism'")
        if state_dict["mechanism"] != self.mechanism():
            raise ValueError(f"state_dict of {state_dict['mechanism']} cannot be loaded into {self.mechanism()}")
        sampling = state_dict.get("sampling")
        if sampling and (sampling["sampling"], sampling["dataset_size"], sampling["adjacency"]) != \
                (self.sampling, self.dataset_size, self.adjacency):
            raise ValueError(f"state_dict was written for {sampling}; this accountant is {self.sampling}, "
                             f"dataset_size {self.dataset_size}, {self.adjacency}")
        history = [tuple(h) for h in state_dict["history"]]
        Schedule(tuple(self._phase(*h) for h in history), self.adjacency) if history else None  # validate
        self.history = history
