#!/usr/bin/python3
"""Write hpcc-fat-tree-320.txt: the HPCC paper's fabric in the HPCC simulator's
topology.txt format (a line 'nodes switches links', the switch ids, one link per line
'a b rate delay error_rate').

320 hosts (ids 0-319) under 20 ToRs (320-339, 16 each, 100G); 5 pods of 4 ToRs and
4 aggregation switches (340-359) fully linked at 400G; 16 cores (360-375): aggregation
switch j of every pod links to cores 4j..4j+3 at 400G. 1 us per link. The same fabric
as topology.type fat_tree with pods 5, tors_per_pod 4, aggs_per_pod 4, hosts_per_tor 16,
cores 16, fabric_rate_gbps 400.
"""
links = []
for h in range(320):
    links.append((h, 320 + h // 16, "100Gbps"))
for pod in range(5):
    for t in range(4):
        for a in range(4):
            links.append((320 + pod * 4 + t, 340 + pod * 4 + a, "400Gbps"))
for pod in range(5):
    for a in range(4):
        for c in range(4):
            links.append((340 + pod * 4 + a, 360 + a * 4 + c, "400Gbps"))
with open("hpcc-fat-tree-320.txt", "w") as f:
    f.write(f"376 56 {len(links)}\n")
    f.write(" ".join(str(i) for i in range(320, 376)) + "\n")
    for a, b, rate in links:
        f.write(f"{a} {b} {rate} 1000ns 0\n")
