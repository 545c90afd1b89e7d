"""One script per paper figure or table; each writes PNG + CSV to figures/out/."""
