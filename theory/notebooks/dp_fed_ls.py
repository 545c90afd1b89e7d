# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Seed 004 (DP-Fed-LS): Lemma 3 → Theorem 2
#
# Every number is computed here by the suite's functions; verdicts are the ledger's claims evaluated here.
# Paper: `004_da72e1d6878ba772.txt`. Modules: `theory.dp_fed_ls.{inequalities, subsampled_rdp, closed_form}`.
#
# **Step 1 (S2, L646-677).** The exact log-moment of the Poisson-subsampled Gaussian at integer α is
# $\sum_j \binom{\alpha}{j}(1-\tau)^{\alpha-j}\tau^j e^{j(j-1)/(2\nu^2)}$. The proof bounds the j ≤ 1 part by 1 (20),
# the j = 2 term by $\tau^2\binom{\alpha}{2}\frac{7}{2\nu^2}$ (21), and the tail by $\tau^2\binom{\alpha}{2}\frac{1}{2\nu^2}$ (19).

# %%
import mpmath

from theory.dp_fed_ls import closed_form as cf
from theory.dp_fed_ls import inequalities as iq
from theory.dp_fed_ls import subsampled_rdp as sr

# each call below is a ledger claim's check (the function registered under the claim id in its comment)
v20 = iq.eq20_first_term()      # 004.eq-20.first-term
v19 = iq.eq19_given_18()        # 004.eq-19.given-18
assert v20.status == "holds" and v19.status == "holds"
print(v20.evidence["dlogf_dtau"])

# %% [markdown]
# **Step 2: (21) holds only on a bounded interval of ν².** $e^{x} \le 3.5x$ ($x = 1/\nu^2$) fails as $x \to 0$.

# %%
lo, hi = iq.eq21_interval_nu2()
print("(21) holds exactly for nu^2 in", mpmath.nstr(lo, 12), mpmath.nstr(hi, 12))
assert lo < 0.53 < 5 / 9 < hi < 2.25
assert iq.eq21_region().status == "refuted"       # 004.eq-21.region

# %% [markdown]
# **Step 3: Lemma 3's conclusion nevertheless holds** against the exact RDP (integer and fractional orders) on
# the sampled grid of its region: the dropped $(1-\tau)^{\alpha-2}$ and the slack of (19) cover the gap.

# %%
v3 = sr.lemma3_vs_exact()       # 004.lemma-3.vs-exact-rdp
print(v3.status, "tightest relative slack", round(v3.margin, 4), v3.evidence["tightest_point"])
assert v3.status == "holds" and v3.margin > 0

# %% [markdown]
# **Step 4: Theorem 2.** With $\nu^2 = 2\tau^2\alpha T\mathcal L^2/(\lambda\varepsilon)$ each round is
# $(\alpha, \lambda\varepsilon/(4\tau^2T))$-RDP before sampling, $(\alpha, \lambda\varepsilon/T)$ after (Lemma 3);
# T rounds and Lemma 1 at $\alpha = \log(1/\delta)/((1-\lambda)\varepsilon)+1$ give ε (sympy).

# %%
v2 = cf.thm2_identities()       # 004.thm-2.identities
assert all(v2.evidence.values())
st = cf.mnist_setting(cf.POISSON)
for eps in (6.0, 9.0):
    nu1, lam, alpha = cf.closed_form_noise(eps, st["delta"], st["tau"], st["rounds"], cf.POISSON)
    cert = cf.certified_bounds(nu1, st["n"], st["tau"], st["rounds"], st["delta"], cf.POISSON)
    print(f"eps={eps}: nu/L={nu1:.4f}, lambda={lam:.3f}, alpha={alpha:.3f} (fractional), "
          f"certified eps in [{cert['lower']:.3f}, {cert['upper']:.3f}] (numerics.epsilon, Poisson add/remove)")
    assert cert["upper"] <= eps
print("Theorem 2's conditions can be met only for eps >=",
      round(cf.feasible_epsilon_min(st["delta"], st["tau"], st["rounds"], cf.POISSON), 4))
