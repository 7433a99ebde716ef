"""Measurement: the chunking experiment, retrieval metrics and question sets."""
