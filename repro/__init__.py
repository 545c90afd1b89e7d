"""Small, seeded, plain-numpy simulators of the seed papers' training algorithms."""
