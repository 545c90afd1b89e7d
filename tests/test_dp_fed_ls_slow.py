"""Seed 004: the lemma scans on a denser grid than the ledger's (slow; `make test-all`)."""
import pytest

from theory.dp_fed_ls import subsampled_rdp as sr


@pytest.mark.slow
def test_lemma3_dense_grid(monkeypatch):
    monkeypatch.setattr(sr, "TAUS", (0.001, 0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9))
    monkeypatch.setattr(sr, "NU2_POINTS", 16)
    monkeypatch.setattr(sr, "NU2_MAX", 1e4)
    v = sr.lemma3_vs_exact()
    assert v.status == "holds", v.evidence


@pytest.mark.slow
def test_lemma2_integer_orders_dense_grid(monkeypatch):
    monkeypatch.setattr(sr, "TAUS", (0.001, 0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9))
    monkeypatch.setattr(sr, "NU2_POINTS", 16)
    monkeypatch.setattr(sr, "NU2_MAX", 1e4)
    v = sr.lemma2_integer_orders()
    assert v.status == "holds", v.evidence
