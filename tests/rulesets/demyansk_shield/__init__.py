"""Tests of toolkit/rulesets/demyansk_shield/, one file per module."""
