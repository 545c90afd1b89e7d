r"""Provenance sidecars of figure and table CSVs, and the freshness check that figure claims rely on.

Every CSV a figure or table script writes, ``<name>.csv``, gets ``<name>.provenance.json`` beside it:

* ``code``: the producing module (e.g. ``figures.fig_000_10``) and the SHA-256 of the sources of its
  closure, every suite module whose code it can run (``numerics.sweep.source_digest``, the digest the
  sweep cache keys on);
* ``config``: the setting the script ran (full or quick, the experiments' arms and seeds) and its
  SHA-256 over canonical JSON;
* ``data``: what the runs trained on: for real MNIST-5k the package, version and file SHA-256
  (``repro.data.mnist_5k_provenance``); for a stand-in, its description;
* ``packages``: versions of the numerical packages (information only: not part of the freshness test);
* ``csv_sha256``: the digest of the CSV itself.

:func:`check_fresh` recomputes the code digest, the config digest, the data digest (MNIST file) and the
CSV digest and compares them with the sidecar; :func:`require_fresh` raises :class:`StaleFigureData`
when any differs, so that a claim reading a stale CSV fails loudly instead of passing for fresh.

This module lives in ``repro`` (not ``figures``) because ``theory`` reads it and may not import
``figures``. It reads the producing module's *source* by name; it never imports it.

No timestamps or host facts are written: a rerun on an unchanged tree writes a byte-identical sidecar.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

#: packages whose versions every sidecar records
PACKAGES = ("numpy", "scipy", "matplotlib", "scikit-learn", "mlxtend")
SUFFIX = ".provenance.json"


class StaleFigureData(RuntimeError):
    """A figure CSV whose sidecar is missing or whose code, config, data or contents changed since."""


def sidecar_path(csv_path) -> Path:
    p = Path(csv_path)
    return p.with_name(p.stem + SUFFIX)


def _sha256_bytes(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def config_digest(config) -> str:
    """SHA-256 of ``config`` as canonical JSON (sorted keys, no whitespace, non-JSON values as str)."""
    return _sha256_bytes(json.dumps(config, sort_keys=True, separators=(",", ":"), default=str).encode())


def code_digest(module: str) -> str:
    """SHA-256 over the sources of ``module`` and every suite module it imports (read, not imported)."""
    from numerics.sweep import source_digest

    source_digest.cache_clear()  # the tree may have changed since the last call in this process
    return source_digest(module)


def package_versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for name in PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def _data_digests(data: dict) -> dict:
    """The data entries whose digest can be recomputed now (real MNIST-5k), as ``name -> sha256``."""
    from .data import mnist_5k_provenance

    return {"mnist-5k": mnist_5k_provenance()["sha256"]} if "mnist-5k" in data else {}


def record(csv_path, *, module: str, config, data: dict) -> dict:
    """The sidecar content for ``csv_path`` (which must already be written)."""
    return {"csv": Path(csv_path).name, "csv_sha256": _sha256_bytes(Path(csv_path).read_bytes()),
            "code": {"module": module, "sha256": code_digest(module)},
            "config": config, "config_sha256": config_digest(config),
            "data": data, "packages": package_versions()}


def write_sidecar(csv_path, *, module: str, config, data: dict) -> Path:
    """Write ``<name>.provenance.json`` beside ``csv_path``; returns its path."""
    path = sidecar_path(csv_path)
    path.write_text(json.dumps(record(csv_path, module=module, config=config, data=data), indent=1,
                               sort_keys=True, default=str) + "\n")
    return path


def check_fresh(csv_path) -> tuple[bool, str]:
    """``(True, summary)`` when ``csv_path``'s sidecar matches the code, config, data and CSV of now;
    otherwise ``(False, reason)``."""
    csv_path, side = Path(csv_path), sidecar_path(csv_path)
    if not csv_path.exists():
        return False, f"{csv_path.name} does not exist"
    if not side.exists():
        return False, f"{csv_path.name} has no provenance sidecar {side.name}"
    rec = json.loads(side.read_text())
    if _sha256_bytes(csv_path.read_bytes()) != rec.get("csv_sha256"):
        return False, f"{csv_path.name} changed after its sidecar was written"
    if config_digest(rec.get("config")) != rec.get("config_sha256"):
        return False, f"the config recorded in {side.name} does not match its digest"
    module = rec.get("code", {}).get("module", "")
    now = code_digest(module) if module else None
    if now != rec.get("code", {}).get("sha256"):
        return False, (f"code changed since {csv_path.name} was made: {module} or a suite module it imports "
                       f"(rerun its make target)")
    for name, sha in _data_digests(rec.get("data", {})).items():
        if rec["data"][name].get("sha256") != sha:
            return False, f"data {name} changed since {csv_path.name} was made (sha256 {sha[:12]})"
    return True, f"fresh: code {rec['code']['sha256'][:12]}, config {rec['config_sha256'][:12]}"


def require_fresh(csv_path) -> dict:
    """The sidecar record of a fresh ``csv_path``; raises :class:`StaleFigureData` otherwise."""
    ok, reason = check_fresh(csv_path)
    if not ok:
        raise StaleFigureData(f"stale figure data: {reason}")
    return json.loads(sidecar_path(csv_path).read_text())
