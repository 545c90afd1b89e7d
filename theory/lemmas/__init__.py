"""Results used by more than one seed paper: mathematics, not claims.

* :mod:`~theory.lemmas.tail_lemma`: the subsampled-Gaussian tail lemma (002 Lemma B.3 = 000 Lemma D.1) and the
  point functions its scans sweep;
* :mod:`~theory.lemmas.mixture_moments`: the moments it rests on (exact :math:`M_t`, Abadi's bound (14), the
  tail (13), the exact log moment);
* :mod:`~theory.lemmas.tail_lemma_balls`: their ball-arithmetic margins (numerics only: cached apart);
* :mod:`~theory.lemmas.certificates`: the certificates over those margins and the verdict a certificate supports;
* :mod:`~theory.lemmas.gdp`: Dong, Roth and Su's f-DP / GDP results as the papers print them;
* :mod:`~theory.lemmas.arguments`: argument checks shared by these functions.
* :mod:`~theory.lemmas.adaptive_gap`: one fixed order of the fixed-size replace-one pair against the adaptive
  adversary (issue 25), the point function and verdict of the seeds' ``privacy.fixed-order-vs-adaptive`` claims.

A claim about a shared lemma is registered by the paper package that states it. This package imports no
paper package (an import contract in pyproject.toml checks it).
"""
