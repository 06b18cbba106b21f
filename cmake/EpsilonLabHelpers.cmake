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

# epsilonlab_add_test(NAME name SOURCES ... LIBS ... [LABELS ...] [GUI])
# One Qt Test executable per unit; GUI tests run with the offscreen platform.
function(epsilonlab_add_test)
  cmake_parse_arguments(T "GUI" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} Qt6::Test)
  target_include_directories(${T_NAME} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${T_NAME} PRIVATE
    EPSILONLAB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
    EPSILONLAB_SHARED_DIR="${PROJECT_SOURCE_DIR}/../shared")
  epsilonlab_set_warnings(${T_NAME})
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
