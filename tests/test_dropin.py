"""Drop-in accountants (issue 33, item 7): dp_accounting's own interface tests on our PrivacyAccountant,
agreement with dp_accounting's PLD accountant on the events both support, and the Opacus interface
tested without Opacus (a real PrivacyEngine in a slow test when Opacus is importable)."""
import math
import types

import pytest

import absl  # noqa: F401  (a missing peer must fail, not skip)
import dp_accounting

import numerics  # noqa: E402
from dp_accounting import dp_event  # noqa: E402
from dp_accounting import privacy_accountant_test  # noqa: E402
from dp_accounting.privacy_accountant import NeighboringRelation  # noqa: E402
from numerics import Phase, Schedule  # noqa: E402
from numerics.dropin import OpacusAccountant  # noqa: E402
from numerics.errors import InvalidParameter  # noqa: E402


def certified(**kw):
    from numerics.dropin import CertifiedPrivacyAccountant
    return CertifiedPrivacyAccountant(**kw)


class TestDpAccountingInterface(privacy_accountant_test.PrivacyAccountantTest):
    """dp_accounting's abstract interface tests (unsupported events, no events, no-op, non-private)."""

    def _make_test_accountants(self):
        return [certified(), certified(neighboring_relation=NeighboringRelation.REPLACE_ONE)]


GAUSS = dp_accounting.GaussianDpEvent(1.0)


def test_compose_and_bracket_every_sampling_event():
    events = [dp_accounting.PoissonSampledDpEvent(0.01, GAUSS),
              dp_accounting.SampledWithoutReplacementDpEvent(1000, 10, GAUSS),
              dp_accounting.SampledWithReplacementDpEvent(1000, 10, GAUSS)]
    for event in events:
        acc = certified()
        assert acc.supports(event)
        acc.compose(event, 50)
        b = acc.epsilon_bounds(1e-5)
        assert 0 < b.epsilon_lower <= b.epsilon_upper == acc.get_epsilon(1e-5)
        direct = numerics.epsilon(dp_accounting.SelfComposedDpEvent(event, 50), 1e-5)
        assert direct.epsilon_upper == b.epsilon_upper
        assert 0 < acc.get_delta(b.epsilon_upper) <= 1.0


def test_fixed_size_is_never_accounted_as_poisson():
    fixed, poisson = certified(), certified()
    fixed.compose(dp_accounting.SampledWithoutReplacementDpEvent(1000, 10, GAUSS), 200)
    poisson.compose(dp_accounting.PoissonSampledDpEvent(0.01, GAUSS), 200)
    assert fixed.epsilon_bounds(1e-5).epsilon_lower > poisson.get_epsilon(1e-5)


def test_an_unsupported_combination_is_refused_by_supports():
    acc = certified(neighboring_relation=NeighboringRelation.REPLACE_ONE)
    event = dp_accounting.PoissonSampledDpEvent(0.1, dp_accounting.LaplaceDpEvent(1.0))
    assert not acc.supports(event)
    with pytest.raises(dp_accounting.UnsupportedEventError):
        acc.compose(event)
    with pytest.raises(InvalidParameter):
        certified(neighboring_relation=NeighboringRelation.REPLACE_SPECIAL)


@pytest.mark.parametrize("relation", [NeighboringRelation.ADD_OR_REMOVE_ONE, NeighboringRelation.REPLACE_ONE])
def test_agrees_with_dp_accounting_pld_on_poisson_gaussian(relation):
    """dp_accounting's PLD (pessimistic) is an upper bound: our certified bracket lies below it and
    within its discretisation of it."""
    from dp_accounting.pld import pld_privacy_accountant
    event = dp_accounting.PoissonSampledDpEvent(0.01, GAUSS)
    ours = certified(neighboring_relation=relation).compose(event, 300)
    peer = pld_privacy_accountant.PLDAccountant(relation, value_discretization_interval=1e-4).compose(event, 300)
    b, theirs = ours.epsilon_bounds(1e-5), peer.get_epsilon(1e-5)
    assert b.epsilon_lower <= theirs
    assert abs(b.epsilon_upper - theirs) <= 0.02 * theirs


def test_agrees_with_dp_accounting_on_full_batch_gaussian_and_laplace():
    from dp_accounting.pld import pld_privacy_accountant
    for event in (GAUSS, dp_accounting.LaplaceDpEvent(2.0)):
        ours = certified().compose(event, 5)
        peer = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4).compose(event, 5)
        b, theirs = ours.epsilon_bounds(1e-5), peer.get_epsilon(1e-5)
        assert b.epsilon_lower <= theirs and abs(b.epsilon_upper - theirs) <= 0.02 * theirs


# --- Opacus, without Opacus -----------------------------------------------------------------------------

def test_opacus_history_len_and_epsilon():
    acc = OpacusAccountant()
    assert acc.get_epsilon(1e-5) == 0.0 and len(acc) == 0
    for _ in range(30):
        acc.step(noise_multiplier=1.1, sample_rate=0.01)
    for _ in range(20):
        acc.step(noise_multiplier=1.5, sample_rate=0.02)
    assert acc.history == [(1.1, 0.01, 30), (1.5, 0.02, 20)] and len(acc) == 50
    assert acc.mechanism() == OpacusAccountant.mechanism() == "dpverify-certified"
    # the history is Opacus's (noise_multiplier, sample_rate, steps): numerics.epsilon reads it as such
    assert acc.get_epsilon(1e-5) == numerics.epsilon(acc.history, 1e-5).epsilon_upper
    b = acc.get_epsilon_bounds(1e-5)
    assert 0 < b.epsilon_lower <= b.epsilon_upper


def test_opacus_state_dict_round_trip_and_refusals():
    acc = OpacusAccountant(sampling="fixed-size", dataset_size=1000)
    acc.step(noise_multiplier=1.0, sample_rate=0.01)
    state = acc.state_dict()
    other = OpacusAccountant(sampling="fixed-size", dataset_size=1000)
    other.load_state_dict(state)
    assert other.history == acc.history and other.get_epsilon(1e-5) == acc.get_epsilon(1e-5)
    with pytest.raises(ValueError):
        OpacusAccountant().load_state_dict(state)  # written for fixed-size batches
    with pytest.raises(ValueError):
        other.load_state_dict({"history": [], "mechanism": "rdp"})
    with pytest.raises(InvalidParameter, match="q\\*dataset_size"):
        acc.step(noise_multiplier=1.0, sample_rate=0.0125)  # 12.5 records is no batch
    with pytest.raises(InvalidParameter):
        OpacusAccountant(sampling="shuffled")


def test_opacus_fixed_size_is_accounted_as_fixed_size():
    fixed, poisson = OpacusAccountant(sampling="fixed-size", dataset_size=1000), OpacusAccountant()
    for acc in (fixed, poisson):
        for _ in range(100):
            acc.step(noise_multiplier=1.0, sample_rate=0.01)
    assert fixed.schedule().phases[0] == Phase.fixed_size(batch_size=10, dataset_size=1000, sigma=1.0, steps=100)
    assert fixed.get_epsilon_bounds(1e-5).epsilon_lower > poisson.get_epsilon(1e-5)


def test_opacus_optimizer_hook_steps_once_per_call():
    acc = OpacusAccountant()
    hook = acc.get_optimizer_hook_fn(sample_rate=0.01)
    optimizer = types.SimpleNamespace(noise_multiplier=1.2, accumulated_iterations=1)
    for _ in range(3):
        hook(optimizer)
    assert acc.history == [(1.2, 0.01, 3)]
    assert Schedule.constant(q=0.01, sigma=1.2, steps=3) == acc.schedule()


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Secure RNG turned off:UserWarning")  # Opacus's notice, on every engine
@pytest.mark.filterwarnings("ignore:Full backward hook is firing:UserWarning")  # torch, inputs need no grad
def test_a_real_privacy_engine_uses_it():
    """With Opacus installed: PrivacyEngine trains with our accountant in place of its own."""
    opacus = pytest.importorskip("opacus")
    torch = pytest.importorskip("torch")
    model = torch.nn.Linear(4, 2)
    data = torch.utils.data.TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))
    loader = torch.utils.data.DataLoader(data, batch_size=8)
    engine = opacus.PrivacyEngine()
    engine.accountant = OpacusAccountant()
    model, optimizer, loader = engine.make_private(module=model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1),
                                                   data_loader=loader, noise_multiplier=1.0, max_grad_norm=1.0)
    for x, y in loader:
        optimizer.zero_grad()
        torch.nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    assert len(engine.accountant) == len(loader)
    eps = engine.get_epsilon(1e-5)
    assert math.isfinite(eps) and eps == engine.accountant.get_epsilon(1e-5)


def test_opacus_accountant_shuffled_batches():
    """sampling="shuffled": the certified shuffled bracket (numerics.shuffled), replace-one only."""
    from numerics.dropin import OpacusAccountant
    from numerics.schedule import Phase, Schedule
    acc = OpacusAccountant(sampling="shuffled", dataset_size=100, adjacency="replace-one")
    for _ in range(30):
        acc.step(noise_multiplier=1.0, sample_rate=0.1)
    direct = numerics.epsilon(Schedule((Phase.shuffled(batch_size=10, dataset_size=100, sigma=1.0, steps=30),),
                                       "replace-one"), 1e-5)
    assert acc.get_epsilon(1e-5) == direct.epsilon_upper
    assert acc.get_epsilon_bounds(1e-5).epsilon_lower == direct.epsilon_lower
    with pytest.raises(InvalidParameter, match="replace-one"):
        OpacusAccountant(sampling="shuffled", dataset_size=100)
