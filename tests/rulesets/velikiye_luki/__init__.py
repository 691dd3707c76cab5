"""Tests of toolkit/rulesets/velikiye_luki/, one file per module."""
