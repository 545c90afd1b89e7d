r"""Seed 001: the SWB300 LSTM's size from its architecture (L214) against "over 43 million parameters", "about
165MB" (L214, L342) and Table 2's 164.62 MB (L356).

A bi-directional LSTM layer with input width x and h cells per direction has, per direction, four gates of
:math:`h(x + h)` weights and two bias vectors of 4h (the cuDNN/PyTorch convention; one bias vector is the other common
convention, checked as the alternative). Layer 1 reads the 260-dimensional fused input (40 + 100 + 40 x 3), layers 2-6
the 2h = 1,024 outputs of the layer below; then a 1,024 -> 256 projection and a 256 -> 32,000 softmax, each with a bias.
Size: 4 bytes a float32 parameter, in MiB (2^20 bytes) and in MB (10^6 bytes). Integer arithmetic throughout.
"""
from __future__ import annotations

from fractions import Fraction

from theory.adp2sgd.paper_values import LSTM, SETUP, TABLE_2
from theory.ledger import Reading, Verdict, claim


def _int(p) -> int:
    return int(p.text.replace(",", ""))


def parameter_count(bias_vectors: int) -> int:
    """Parameters of the L214 architecture with ``bias_vectors`` bias vectors of 4h per direction and layer."""
    h, layers = _int(LSTM["cells_per_direction"]), _int(LSTM["layers"])
    if 2 * h != _int(LSTM["cells_per_layer"]):
        raise ValueError("cells per layer is not twice the cells per direction")
    x1 = _int(LSTM["fmllr"]) + _int(LSTM["ivector"]) + _int(LSTM["logmel"]) * _int(LSTM["logmel_copies"])
    per_direction = lambda x: 4 * h * (x + h) + bias_vectors * 4 * h          # noqa: E731
    lstm = 2 * per_direction(x1) + (layers - 1) * 2 * per_direction(2 * h)
    proj, classes = _int(LSTM["projection"]), _int(LSTM["classes"])
    return lstm + (2 * h * proj + proj) + (proj * classes + classes)


def _outcome(bias_vectors: int) -> dict:
    n = parameter_count(bias_vectors)
    mib = Fraction(4 * n, 2 ** 20)
    printed = Fraction(TABLE_2["LSTM/S"][0].text)
    return {"parameters": n, "MiB": float(mib), "MB": 4 * n / 10 ** 6,
            "over_43M": n // 10 ** 6 == _int(SETUP["lstm_params_million"]),
            "rounds_to_table_2": round(mib, 2) == printed,
            "about_165": round(mib) == _int(SETUP["lstm_size_mb"]),
            "relative_gap_to_table_2": float((mib - printed) / printed)}


@claim(id="001.sec-5.lstm-size-from-architecture", seed="001", lines="L214, L342, L356",
       statement="The SWB300 LSTM of L214 (6 bi-directional layers of 2 x 512 cells, 260-dim input, 256-unit projection, 32,000-way softmax) has 'over 43 million parameters' and is 'about 165MB' (Table 2: 164.62 MB).",
       recorded="holds", result="Table 2", role="printed-value")
def lstm_size() -> Verdict:
    two, one = _outcome(2), _outcome(1)
    ok = two["over_43M"] and two["rounds_to_table_2"] and two["about_165"]
    why = "" if ok else f"the architecture gives {two['parameters']} parameters = {two['MiB']:.3f} MiB"
    readings = (Reading("two bias vectors per gate set (cuDNN, PyTorch), size in MiB", "L214, L356",
                        "holds" if ok else "refuted", two["relative_gap_to_table_2"],
                        f"{two['parameters']:,} parameters = {two['MiB']:.4f} MiB (Table 2: 164.62)"),
                Reading("one bias vector (Keras), size in MiB", "L214", "holds" if one["rounds_to_table_2"] else "refuted",
                        one["relative_gap_to_table_2"],
                        f"{one['parameters']:,} parameters = {one['MiB']:.4f} MiB, not 164.62"))
    return Verdict("holds" if ok else "refuted", "exact", 0.0 if ok else -abs(two["relative_gap_to_table_2"]), why=why,
                   readings=readings if ok else (), arithmetic=("integer", "rational"),
                   counterexample=None if ok else two,
                   evidence={"two_bias_vectors": two, "one_bias_vector": one,
                             "note": "the printed 164.62 is MiB of float32 (4 x 43.15M = 172.6 million bytes = 172.6 MB "
                                     "decimal), so 'MB' in Table 2 means 2^20 bytes",
                             "domain": "the architecture as printed at L214 (exact integers)"})
