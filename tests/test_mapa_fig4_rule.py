"""The rule of 003.fig-4.eps-1-restores on synthetic rows (no figure run): holds when every eps-0.01 cell is
significantly below 0.1 and some eps-1 cell significantly above 0.5 for both models under every setting; refuted
(with a counterexample that rechecks from the rows) only when a model fails under every setting; open otherwise."""
import numpy as np
import pytest

from theory.mapa import experiments as X

SPREAD = np.linspace(-0.05, 0.05, 20)  # 20 draws per cell, sd about 0.03


def _cell(model, const, eps, digit, centre, noise="paper-literal") -> dict:
    corr = centre + SPREAD
    return {"stage": X.TRAINING, "constants": const, "model": model, "noise": noise, "epsilon_per_iteration": str(eps),
            "iteration": "2000", "clip": "1.3", "digit": str(digit), "repetitions": "20",
            "mean_correlation": str(corr.mean()), "correlations": " ".join(f"{c:.2f}" for c in corr)}


def _rows(high_best: dict, low_worst: float = 0.0) -> list:
    """Two models x settings, four images; at eps 1 one image at ``high_best[(model, const)]``, the others at 0.2;
    at eps 0.01 one image at ``low_worst``, the others at 0."""
    rows = []
    for (model, const), best in high_best.items():
        rows += [_cell(model, const, 1.0, d, best if d == 0 else 0.2) for d in range(4)]
        rows += [_cell(model, const, 0.01, d, low_worst if d == 0 else 0.0) for d in range(4)]
    return rows


@pytest.fixture
def use(monkeypatch):
    def set_rows(rows):
        monkeypatch.setattr(X, "_rows", lambda name: rows)
    return set_rows


SETTINGS = [("lr", "default"), ("lr", "L 5"), ("svm", "default"), ("svm", "L 5")]


def test_holds_when_every_setting_holds(use):
    use(_rows({k: 0.8 for k in SETTINGS}))
    v = X.inversion_paper()
    # margin: min(best eps-1 mean 0.8 - 0.5, 0.1 - worst eps-0.01 mean 0.0), both from the rows above
    assert v.status == "holds" and v.margin == pytest.approx(0.1)


def test_blur_not_significant_leaves_open(use):
    use(_rows({k: 0.8 for k in SETTINGS}, low_worst=0.09))
    v = X.inversion_paper()
    assert v.status == "open" and "open" in v.reason


def test_refuted_only_when_every_setting_refutes(use):
    rows = _rows({("lr", "default"): 0.2, ("lr", "L 5"): 0.2, ("svm", "default"): 0.8, ("svm", "L 5"): 0.8})
    use(rows)
    v = X.inversion_paper()
    assert v.status == "refuted" and v.counterexample["model"] == "lr"
    assert X.recheck_fig4(v.counterexample) < 0
    use(_rows({("lr", "default"): 0.2, ("lr", "L 5"): 0.8, ("svm", "default"): 0.8, ("svm", "L 5"): 0.8}))
    assert X.inversion_paper().status == "open"
