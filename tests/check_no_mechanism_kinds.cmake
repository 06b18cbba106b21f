# Usage: cmake "-DSCAN_DIRS=<dir>;<dir>..." -P check_no_mechanism_kinds.cmake
# A mechanism is its folder plus its catalog entry (core/mechanisms/mechanism_catalog.h): outside
# core/, no file names a mechanism kind (`MechanismKind::X`). The GUI and the CLI ask the
# catalog what a mechanism is (private, trained in epochs, needs Λ > 0, has Taylor estimates).
set(violations "")
set(count 0)
foreach(dir IN LISTS SCAN_DIRS)
  file(GLOB_RECURSE files "${dir}/*.h" "${dir}/*.cpp")
  foreach(f IN LISTS files)
    math(EXPR count "${count} + 1")
    file(STRINGS "${f}" lines REGEX "MechanismKind::[A-Za-z]")
    foreach(line IN LISTS lines)
      string(STRIP "${line}" line)
      string(APPEND violations "  ${f}: ${line}\n")
    endforeach()
  endforeach()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "no sources found under ${SCAN_DIRS}")
endif()
if(violations)
  message(FATAL_ERROR "files outside core/ name a mechanism kind (use the catalog instead):\n${violations}")
endif()
message(STATUS "${count} files name no mechanism kind")
