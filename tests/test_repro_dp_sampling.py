"""repro.dp / repro.epsilon: every run reports the epsilon of the sampling it performed; the MLP's clipped per-sample
gradients on real MNIST-5k rows."""
import numpy as np
import pytest

from numerics.errors import InvalidParameter
from numerics.schedule import Schedule
from repro import data, dp, models
from repro.epsilon import certify_run, describe_epsilon, epsilon_for_sampling
from repro.async_fl import simulate
from repro.config import RunConfig

TINY = dict(data="a9a-like", n_records=1000, sizes={"kind": "constant", "s": 10}, total_iterations=200,
            dp_sigma=3.0, dp_delta=1e-5, certify=True)


def test_every_sampling_gets_a_certified_bracket_and_never_the_poisson_one():
    n, b, sigma, steps = 1000, 10, 3.0, 20
    records = {}
    for s in dp.SAMPLINGS:
        rec = dp.PrivacyRecord(n, s)
        for _ in range(steps):
            rec.add_round(b, sigma)
        records[s] = epsilon_for_sampling(rec.schedule(), 1e-5, s)
        e = records[s]
        # every sampling's masses are enclosed since h29e (with replacement: the copies pair, issue 29)
        assert e["accounted"] and e["certified"]
        assert 0 <= e["epsilon_lower"] <= e["epsilon_upper"] < np.inf
        assert s in describe_epsilon(e)
    # a batch that is not Poisson-sampled is never given the Poisson number: fixed-size add/remove
    # (shift 2C) dominates Poisson at the same rate, so its certified lower end is above Poisson's upper end
    assert records["fixed"]["epsilon_lower"] >= records["poisson"]["epsilon_upper"]
    assert records["with-replacement"]["epsilon_lower"] >= records["poisson"]["epsilon_upper"]


def test_a_schedule_of_another_sampling_is_refused():
    pois = Schedule.constant(q=0.01, sigma=3.0, steps=20)
    for s in ("fixed", "with-replacement"):
        with pytest.raises(InvalidParameter, match="schedule describes"):
            epsilon_for_sampling(pois, 1e-5, s)
    with pytest.raises(InvalidParameter):
        epsilon_for_sampling(pois, 1e-5, "shuffle")


@pytest.mark.parametrize("sampling", ["poisson", "fixed", "with-replacement"])
def test_a_run_reports_the_epsilon_of_its_own_sampling(sampling):
    res = certify_run(simulate(RunConfig(**TINY, sampling=sampling)))
    eps = res["privacy"]["epsilon"]
    assert eps["sampling"] == sampling and eps["accounted"] and eps["certified"]  # every sampling enclosed (h29e)
    phases = res["privacy"]["schedules"][0]["phases"]
    assert {p["sampling"] for p in phases} == {dp.NUMERICS_SAMPLING[sampling]}


def test_mlp_clipped_per_sample_gradients_on_mnist_rows():
    ds = data.load("mnist-5k", seed=0)
    x, y = ds.x_train[:6], ds.y_train[:6]
    m = models.MLP(784, 8, 10)
    theta = m.init(np.random.default_rng(0))
    g = m.per_sample_grads(theta, x, y)
    assert g.shape == (6, m.n_params)
    # each row is its sample's gradient: central differences on a few coordinates of sample 3
    rng = np.random.default_rng(1)
    for j in rng.choice(m.n_params, 12, replace=False):
        e = np.zeros(m.n_params)
        e[j] = 1e-6
        fd = (m.loss(theta + e, x[3:4], y[3:4]) - m.loss(theta - e, x[3:4], y[3:4])) / 2e-6
        assert g[3, j] == pytest.approx(fd, abs=1e-6)
    c = dp.clip_rows(g, 0.025)
    assert np.all(np.linalg.norm(c, axis=1) <= 0.025 * (1 + 1e-12))
