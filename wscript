# -*- Mode: python; py-indent-offset: 4; indent-tabs-mode: nil; coding: utf-8; -*-
"""Pointer for users of waf-based ns-3 trees (ns-3.35 and older).

This repository is not a waf project by itself: the rdma module is built inside an
ns-3 tree. Copy src/rdma into the ns-3 tree and let ns-3's waf build it:

    cp -r src/rdma <ns-3>/contrib/rdma        # or <ns-3>/src/rdma
    cd <ns-3>
    ./waf configure --enable-modules=rdma      # plus your usual options
    ./waf build

src/rdma/wscript is the module script. CMake-based ns-3 trees (ns-3.36 and newer)
use src/rdma/CMakeLists.txt the same way (./ns3 configure --enable-modules=rdma);
the top-level CMakeLists.txt builds against an installed ns-3 instead.
"""

top = '.'
out = 'build/waf'

HOWTO = ('this repository is not built with waf on its own: copy src/rdma to '
         '<ns-3>/contrib/rdma (or <ns-3>/src/rdma) and run, in the ns-3 tree, '
         '"./waf configure --enable-modules=rdma" then "./waf build" '
         '(see the docstring of this wscript)')


def options(opt):
    pass


def configure(conf):
    conf.fatal(HOWTO)


def build(bld):
    bld.fatal(HOWTO)
