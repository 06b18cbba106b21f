# Shared compile settings and the one-call test helper (docs/STYLE.md §5–6).
function(epsilonlab_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion)
  # GCC 12 reports -Wrestrict false positives inside libstdc++ for `"literal" + std::string&&`
  # at -O2/-O3 (GCC bug 105651, fixed in GCC 13); the diagnostic is useless there.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(EPSILONLAB_WARNINGS_AS_ERRORS)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# epsilonlab_add_test(NAME name SOURCES ... LIBS ... [LABELS ...] [GUI] [PCH_FROM target | PCH headers...])
# One Qt Test executable per unit; GUI tests run with the offscreen platform.
# PCH: this test precompiles these headers; PCH_FROM: it reuses the headers another test of the same
# directory precompiled (same libraries, hence the same definitions and flags, as GCC requires).
function(epsilonlab_add_test)
  cmake_parse_arguments(T "GUI" "NAME;PCH_FROM" "SOURCES;LIBS;LABELS;PCH" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  # A test's QObject is in its .cpp, which includes its own NAME.moc: moc runs on that file alone,
  # instead of AUTOMOC's scan of the target and its extra (empty) translation unit per test.
  set(automoc ON)
  foreach(src IN LISTS T_SOURCES)
    get_filename_component(base "${src}" NAME_WE)
    file(STRINGS "${src}" own_moc REGEX "^#include \"${base}\\.moc\"")
    if(own_moc)
      set(moc_dir "${CMAKE_CURRENT_BINARY_DIR}/${T_NAME}_moc")
      qt_generate_moc("${src}" "${moc_dir}/${base}.moc" TARGET ${T_NAME})
      target_sources(${T_NAME} PRIVATE "${moc_dir}/${base}.moc")
      target_include_directories(${T_NAME} PRIVATE "${moc_dir}")
      set(automoc OFF)
    endif()
  endforeach()
  set_target_properties(${T_NAME} PROPERTIES AUTOMOC ${automoc})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} Qt6::Test)
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${T_NAME} PRIVATE
    EPSILONLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    EPSILONLAB_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  epsilonlab_set_warnings(${T_NAME})
  if(EPSILONLAB_PRECOMPILED_HEADERS)
    if(T_PCH)
      target_precompile_headers(${T_NAME} PRIVATE ${T_PCH})
    elseif(T_PCH_FROM)
      target_precompile_headers(${T_NAME} REUSE_FROM ${T_PCH_FROM})
    endif()
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  set(labels ${T_LABELS})
  if(T_GUI)
    list(APPEND labels gui)
    set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "QT_QPA_PLATFORM=offscreen")
  endif()
  if(labels)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${labels}")
  endif()
endfunction()

# Headers that most tests include, precompiled once per test directory. oneTBB comes before Qt:
# Qt's `emit` macro would break oneTBB's profiling header included after it.
set(EPSILONLAB_TEST_PCH_HEADERS
    <tbb/global_control.h> <tbb/parallel_for.h> <tbb/task_arena.h>
    <Eigen/Dense> <Eigen/SparseCore> <nlohmann/json.hpp>
    <algorithm> <cmath> <functional> <limits> <memory> <optional> <string> <vector>
    <QtTest>)

# epsilonlab_add_tests(PREFIX p GLOB pattern LIBS ... [GUI] [PCH headers...])
# One test executable per file matching GLOB (named PREFIX + file name); the first precompiles
# the PCH headers and the others reuse them.
function(epsilonlab_add_tests)
  cmake_parse_arguments(A "GUI" "PREFIX;GLOB" "LIBS;PCH" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS "${A_GLOB}")
  list(SORT sources)
  set(first "")
  set(gui "")
  if(A_GUI)
    set(gui GUI)
  endif()
  foreach(src IN LISTS sources)
    get_filename_component(name "${src}" NAME_WE)
    set(name "${A_PREFIX}${name}")
    if(first STREQUAL "")
      epsilonlab_add_test(NAME ${name} SOURCES ${src} LIBS ${A_LIBS} ${gui} PCH ${A_PCH})
      set(first ${name})
    else()
      epsilonlab_add_test(NAME ${name} SOURCES ${src} LIBS ${A_LIBS} ${gui} PCH_FROM ${first})
    endif()
  endforeach()
endfunction()

# epsilonlab_sanitizer_environment(): in a sanitizer build (CMAKE_CXX_FLAGS has -fsanitize=),
# gives every test of the calling directory the sanitizers' options: the documented suppression
# files of tests/sanitizers/, stack traces for UndefinedBehaviorSanitizer and, under
# ThreadSanitizer, the instrumented libtbb of EPSILONLAB_TSAN_TBB_DIR. Call it at the end
# of each test directory's CMakeLists.txt (test properties are per directory).
function(epsilonlab_sanitizer_environment)
  if(NOT CMAKE_CXX_FLAGS MATCHES "-fsanitize=")
    return()
  endif()
  set(supp "${PROJECT_SOURCE_DIR}/tests/sanitizers")
  set(env "LSAN_OPTIONS=suppressions=${supp}/lsan.supp" "TSAN_OPTIONS=suppressions=${supp}/tsan.supp"
      "UBSAN_OPTIONS=print_stacktrace=1")
  # ThreadSanitizer: the tests load an instrumented libtbb (scripts/build_tbb_tsan.sh) when given.
  if(CMAKE_CXX_FLAGS MATCHES "-fsanitize=thread" AND EPSILONLAB_TSAN_TBB_DIR)
    file(GLOB_RECURSE tbb_lib "${EPSILONLAB_TSAN_TBB_DIR}/libtbb.so.12")
    if(NOT tbb_lib)
      message(FATAL_ERROR "EPSILONLAB_TSAN_TBB_DIR=${EPSILONLAB_TSAN_TBB_DIR} holds no libtbb.so.12 "
                          "(build it with scripts/build_tbb_tsan.sh)")
    endif()
    list(GET tbb_lib 0 tbb_lib)
    get_filename_component(tbb_dir "${tbb_lib}" DIRECTORY)
    list(APPEND env "LD_LIBRARY_PATH=${tbb_dir}")
  endif()
  get_property(tests DIRECTORY PROPERTY TESTS)
  if(tests)
    set_property(TEST ${tests} APPEND PROPERTY ENVIRONMENT ${env})
  endif()
endfunction()

# With EPSILONLAB_UNITY_BUILD, TARGET compiles its sources in batches of 16 (one translation unit
# each): a build from scratch parses Eigen, oneTBB and Qt once per batch instead of once per file.
# Names at namespace scope must then be unique across the target, anonymous namespaces included.
function(epsilonlab_unity_build TARGET)
  if(EPSILONLAB_UNITY_BUILD)
    set_target_properties(${TARGET} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
  endif()
endfunction()
