# HawkKernels.cmake -- hawk_add_kernels: export HIR kernels as MISRA C at
# build time and compile the units into a target of the calling project.
#
#   hawk_add_kernels(TARGET fw_kernels SOURCES drag.hir kepler.hir
#                    [OUTPUT_DIR dir] [PROFILE max-trips=32 fp-domain=refuse]
#                    [CHECK])
#
# The kernels of all SOURCES are one export (hawk-emit) into OUTPUT_DIR
# (default <binary dir>/hawk/<target>): every unit's .c and the runtime
# unit's hawk_runtime.c are added to TARGET, the directory to its include
# path (PUBLIC), and the flags the units' bit identity needs
# (-ffp-contract=off, -fno-builtin-<f>) to those sources alone, for gcc and
# clang.  The export re-runs when a source or hawk-emit changes, and only
# then; the kernel names are read from the sources when CMake configures,
# and a change to a source re-runs the configure step.  PROFILE entries are
# hawk-emit's profile flags without the dash.  CHECK runs the export's
# toolchain checks with the project's C compiler (HAWK_CC); without it the
# reports record them as skipped.
#
# The export runs on the build machine: when cross-compiling, point
# HAWK_EMIT at a hawk-emit built for the build machine (an installed hawk's
# bin/hawk-emit) instead of the one this build would cross-compile.
set(HAWK_EMIT "" CACHE FILEPATH "hawk-emit for hawk_add_kernels (empty: the hawk::emit target)")

function(hawk_add_kernels)
  cmake_parse_arguments(HK "CHECK" "TARGET;OUTPUT_DIR" "SOURCES;PROFILE" ${ARGN})
  if(NOT HK_TARGET OR NOT TARGET ${HK_TARGET})
    message(FATAL_ERROR "hawk_add_kernels: TARGET must name a target of this project")
  endif()
  if(NOT HK_SOURCES)
    message(FATAL_ERROR "hawk_add_kernels(${HK_TARGET}): no SOURCES")
  endif()
  if(HK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hawk_add_kernels(${HK_TARGET}): unknown arguments ${HK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT HK_OUTPUT_DIR)
    set(HK_OUTPUT_DIR ${CMAKE_CURRENT_BINARY_DIR}/hawk/${HK_TARGET})
  endif()
  if(HAWK_EMIT)
    set(emit ${HAWK_EMIT})
    set(emit_dep ${HAWK_EMIT})
  elseif(TARGET hawk::emit)
    set(emit $<TARGET_FILE:hawk::emit>)
    set(emit_dep hawk::emit)
  else()
    message(FATAL_ERROR "hawk_add_kernels(${HK_TARGET}): no hawk-emit (build hawk's tools, or set HAWK_EMIT)")
  endif()

  set(inputs)
  set(units)
  set(outputs)
  foreach(src ${HK_SOURCES})
    get_filename_component(abs ${src} ABSOLUTE)
    list(APPEND inputs ${abs})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${abs})
    file(STRINGS ${abs} lines REGEX "^[ \t]*kernel[ \t]+@")
    foreach(line ${lines})
      string(REGEX REPLACE "^[ \t]*kernel[ \t]+@([A-Za-z0-9_.]+).*" "\\1" k "${line}")
      list(APPEND units ${HK_OUTPUT_DIR}/${k}.c)
      list(APPEND outputs ${HK_OUTPUT_DIR}/${k}.c ${HK_OUTPUT_DIR}/${k}.h
                          ${HK_OUTPUT_DIR}/${k}.embedded.json)
    endforeach()
  endforeach()
  if(NOT units)
    message(FATAL_ERROR "hawk_add_kernels(${HK_TARGET}): no kernel in ${HK_SOURCES}")
  endif()
  list(APPEND units ${HK_OUTPUT_DIR}/hawk_runtime.c)
  set(rsp ${HK_OUTPUT_DIR}/hawk_cflags.rsp)
  list(APPEND outputs ${HK_OUTPUT_DIR}/hawk_runtime.c
                      ${HK_OUTPUT_DIR}/hawk_runtime.h ${rsp})

  set(flags)
  foreach(p ${HK_PROFILE})
    list(APPEND flags -${p})
  endforeach()
  if(HK_CHECK)
    set(env ${CMAKE_COMMAND} -E env HAWK_CC=${CMAKE_C_COMPILER})
  else()
    set(env)
    list(APPEND flags -no-check)
  endif()
  # A fresh directory each time: a kernel taken out of the sources leaves
  # no unit behind in the runtime's record.
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${HK_OUTPUT_DIR}
    COMMAND ${env} ${emit} -o ${HK_OUTPUT_DIR} -cflags-file=${rsp} ${flags} ${inputs}
    DEPENDS ${inputs} ${emit_dep}
    COMMENT "hawk-emit: the kernels of ${HK_TARGET}"
    VERBATIM)
  target_sources(${HK_TARGET} PRIVATE ${units})
  target_include_directories(${HK_TARGET} PUBLIC ${HK_OUTPUT_DIR})
  set_source_files_properties(${units} PROPERTIES GENERATED TRUE
    COMPILE_OPTIONS "$<$<C_COMPILER_ID:GNU,Clang,AppleClang>:@${rsp}>")
endfunction()
