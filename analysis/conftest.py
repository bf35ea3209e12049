"""Pytest configuration: make ``rdma_plot`` importable from the tests."""

import os
import sys

ANALYSIS_DIR = os.path.dirname(os.path.abspath(__file__))
if ANALYSIS_DIR not in sys.path:
    sys.path.insert(0, ANALYSIS_DIR)
