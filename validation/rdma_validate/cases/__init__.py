"""The validation cases, one module each; ALL lists them in report order."""

from . import dcqcn, fabric

ALL = [fabric.CASE, dcqcn.CASE]
