# Configure-time checks of the rdma module's dependencies, for both ways of building it
# (an ns-3 source tree's ./ns3, or the repository's top-level CMakeLists.txt). Each
# missing one stops the configuration with one message naming the Debian package, as
# the wscript's configure does, instead of an error deep in the build.
#
#   rdma_require_ns3_version(VERSION)        ns-3 itself (3.36 or newer; tested 3.37-3.48)
#   rdma_ns3_version_number(VERSION OUT)     VERSION as the number ns3-compat.h reads
#   rdma_require_header_libraries()          nlohmann-json, Boost string algorithms
#   rdma_require_program_options()           Boost.program_options (the programs)
#   rdma_require_googletest()                GoogleTest (the tests)

include_guard(GLOBAL)
include(CheckIncludeFileCXX)

# The oldest ns-3 the module builds with: 3.36 (the first CMake release; the module
# builds Callbacks from lambdas, e.g. Callback<void>([]() {...}), and uses
# TracedCallback::IsEmpty, neither of which waf-based ns-3.35 and older accept).
set(RDMA_MIN_NS3_VERSION 3.36)
# The releases it is built and tested with: 3.37 (Debian's, out of tree and in its source
# tree) and 3.48 (in a tree), both in CI; the API changes between them are all in
# model/ns3-compat.h.
set(RDMA_TESTED_NS3_VERSIONS "3.37 to 3.48")
set(RDMA_NEWEST_TESTED_NS3_VERSION 3.48)

function(rdma_fail what package)
  message(FATAL_ERROR "rdma: ${what} not found. On Debian/Ubuntu: sudo apt install ${package}")
endfunction()

function(rdma_require_ns3_version version)
  if(version AND version VERSION_LESS RDMA_MIN_NS3_VERSION)
    message(FATAL_ERROR
      "rdma: ns-3 ${version} is too old: the rdma module needs ns-3 ${RDMA_MIN_NS3_VERSION} "
      "or newer (it is built and tested with ${RDMA_TESTED_NS3_VERSIONS})")
  endif()
  if(version VERSION_GREATER RDMA_NEWEST_TESTED_NS3_VERSION)
    message(STATUS "rdma: ns-3 ${version} is newer than the releases the module is tested "
                   "with (${RDMA_TESTED_NS3_VERSIONS})")
  endif()
endfunction()

# ns3-compat.h switches on RDMA_NS3_VERSION, major * 1000 + minor (3.37: 3037). A
# version that is not a release number (an ns-3-dev tree's VERSION is "3-dev") gets the
# newest API.
function(rdma_ns3_version_number version out)
  if(version MATCHES "^([0-9]+)\\.([0-9]+)")
    math(EXPR number "${CMAKE_MATCH_1} * 1000 + ${CMAKE_MATCH_2}")
  else()
    set(number 999999)
    message(STATUS "rdma: ns-3 version '${version}' is not a release: built for the newest API")
  endif()
  set(${out} ${number} PARENT_SCOPE)
endfunction()

function(rdma_require_header_libraries)
  find_package(nlohmann_json 3 QUIET)
  if(NOT nlohmann_json_FOUND)
    check_include_file_cxx(nlohmann/json.hpp RDMA_HAVE_NLOHMANN_JSON)
    if(NOT RDMA_HAVE_NLOHMANN_JSON)
      rdma_fail("nlohmann-json 3 (nlohmann/json.hpp)" nlohmann-json3-dev)
    endif()
  endif()
  check_include_file_cxx(boost/algorithm/string.hpp RDMA_HAVE_BOOST_STRING)
  if(NOT RDMA_HAVE_BOOST_STRING)
    rdma_fail("Boost string algorithms (boost/algorithm/string.hpp)" libboost-dev)
  endif()
endfunction()

# Also sets the cache variable RDMA_PROGRAM_OPTIONS_LIBRARY, the library's file: ns-3's
# build_lib_example takes a file path for a library that is not an ns-3 module (any
# other name it reads as a missing module, and it then skips the example silently).
function(rdma_require_program_options)
  find_package(Boost QUIET COMPONENTS program_options)
  find_library(RDMA_PROGRAM_OPTIONS_LIBRARY NAMES boost_program_options)
  if(NOT Boost_PROGRAM_OPTIONS_FOUND OR NOT RDMA_PROGRAM_OPTIONS_LIBRARY)
    rdma_fail("Boost.program_options (used by rdma-run)" libboost-program-options-dev)
  endif()
endfunction()

function(rdma_require_googletest)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    rdma_fail("GoogleTest (the module's tests)" "googletest libgtest-dev")
  endif()
endfunction()
