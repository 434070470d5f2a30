"""The bundled sample data, what it is made from (`sample_source/`), and the scripts that write it.

A package so that tests and benchmarks import the generator one way: `from data import make_sample`.
"""
