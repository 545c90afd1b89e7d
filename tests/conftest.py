"""Shared test configuration: a deterministic hypothesis profile (STYLE 9)."""
import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, max_examples=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Neither profile times anything: a deadline or the too_slow health check would fail a test on a loaded
# machine (issue 34); speed targets live in the benchmarks.
settings.register_profile("dev", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Tests compute fresh, in-process, unless a test asks for a backend: a fresh cache directory per session
# (a stale cache can never make a test pass) and the serial backend by default.
import tempfile  # noqa: E402

os.environ.setdefault("DPV_BACKEND", "serial")
os.environ.setdefault("DPV_CACHE_DIR", tempfile.mkdtemp(prefix="dpv-test-cache-"))
os.environ.setdefault("DPV_CERTIFY_SCALE", "ci")  # certificates on their reduced regions (theory.lemmas.certificates.SCALES)
