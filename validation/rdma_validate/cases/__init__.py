"""The validation cases, one module each; ALL lists them in report order."""

from . import (conweave, dcqcn, fabric, hpcc_paper, irn, load_balancing, ns3dc_burst,
               ns3dc_fairness, pint_websearch, rtt_probe, rtt_probe_robustness, swift, timely,
               uec)

ALL = [fabric.CASE, dcqcn.CASE, timely.CASE, swift.CASE, irn.CASE, load_balancing.CASE,
       rtt_probe.CASE, rtt_probe_robustness.CASE, hpcc_paper.CASE,
       conweave.CASE, ns3dc_burst.CASE, ns3dc_fairness.CASE, uec.CASE, pint_websearch.CASE]
