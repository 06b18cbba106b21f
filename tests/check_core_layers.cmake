# Usage: cmake -DSCAN_DIR=<dir> -P check_core_layers.cmake
# core/ is one dependency order: a file may include its own folder and folders of lower layers
# only. Fails on any include that goes back up (or sideways between folders of one layer), and
# on a folder that has no place in the order. The order (docs/developer.md, "Layout"):
# util → scale → data → optim → model → privacy → learner → learners/{linear_erm, gaussian_lm,
# dpsgd} → mechanisms → sweeps → {stability, regions, audit} → report. Folders of one layer are
# separated by commas below and may not include each other.
set(rank 0)
set(known "")
foreach(entry "util" "scale" "data" "optim" "model" "privacy" "learner"
        "learners/linear_erm,learners/gaussian_lm,learners/dpsgd" "mechanisms" "sweeps"
        "stability,regions,audit" "report")
  string(REPLACE "," ";" folders "${entry}")
  foreach(folder IN LISTS folders)
    string(REPLACE "/" "_" key "${folder}")
    set(RANK_${key} ${rank})
    list(APPEND known "${folder}")
  endforeach()
  math(EXPR rank "${rank} + 1")
endforeach()

function(folder_of path out)
  string(REGEX MATCH "^(learners/[^/]+|[^/]+)/" m "${path}")
  set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE files RELATIVE "${SCAN_DIR}" "${SCAN_DIR}/*.h" "${SCAN_DIR}/*.cpp")
set(violations "")
foreach(f IN LISTS files)
  folder_of("${f}" from)
  if(from STREQUAL "")
    continue() # a file at the top of core/ (none today) belongs to no layer
  endif()
  string(REPLACE "/" "_" fromKey "${from}")
  if(NOT DEFINED RANK_${fromKey})
    string(APPEND violations "  ${f}: folder core/${from}/ has no place in the layer order\n")
    continue()
  endif()
  file(STRINGS "${SCAN_DIR}/${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*\"core/")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "\"core/([^\"]+)\"" m "${line}")
    folder_of("${CMAKE_MATCH_1}" to)
    string(REPLACE "/" "_" toKey "${to}")
    if(to STREQUAL from)
      continue()
    endif()
    if(NOT DEFINED RANK_${toKey})
      string(APPEND violations "  ${f}: includes core/${to}/, which has no place in the layer order\n")
    elseif(NOT RANK_${toKey} LESS RANK_${fromKey})
      string(APPEND violations "  ${f}: ${line}  (core/${from} may not include core/${to})\n")
    endif()
  endforeach()
endforeach()
list(LENGTH files count)
if(count EQUAL 0)
  message(FATAL_ERROR "no sources found under ${SCAN_DIR}")
endif()
if(violations)
  message(FATAL_ERROR "core/ includes that break the layer order:\n${violations}")
endif()
message(STATUS "${count} files under ${SCAN_DIR} keep the layer order")
