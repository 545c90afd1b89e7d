"""Seed 002: Proactive DP (002_13c470b90c68bab6.txt). One submodule per concept; claims register on import."""
