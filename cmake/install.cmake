# Installation: the layout (GNUInstallDirs), the files made for users both in
# the build tree and in the install prefix, and the install rules.
#
#   bspcc          build/bin/bspcc                     <bindir>/bspcc
#   orma-caf       build/bin/orma-caf                  <bindir>/orma-caf
#   orma.pc        build/lib/pkgconfig/orma.pc         <libdir>/pkgconfig/orma.pc
#   orma-bsp.pc    build/lib/pkgconfig/orma-bsp.pc     <libdir>/pkgconfig/orma-bsp.pc
#   orma-caf.pc    build/lib/pkgconfig/orma-caf.pc     <libdir>/pkgconfig/orma-caf.pc
#   ormaConfig     build/lib/cmake/orma/               <libdir>/cmake/orma/
#                  (find_package(orma): orma::orma, orma::bsp, orma::caf)
#
# The build tree's copies name the build tree (headers in the source tree,
# libraries in build/lib); the installed ones name the install prefix.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# What a program needs to use this build of orma beyond -I and -l: a
# library built with sanitizers wants the program linked with their
# runtimes (bspcc, the pkg-config files and the CMake package add these).
set(ORMA_USER_FLAGS "")
if(ORMA_SANITIZE)
  set(ORMA_USER_FLAGS -fsanitize=${ORMA_SANITIZE})
elseif(ORMA_FUZZ)
  set(ORMA_USER_FLAGS -fsanitize=address,undefined)
endif()

# orma_configure_file(TEMPLATE <file.in> NAME <name> BUILD_DIR <dir>
#                     INSTALL_DIR <dir under the prefix, or absolute> [PROGRAM])
# configures <file.in> (@ONLY) twice: now into BUILD_DIR/NAME with the
# build tree's paths, and at install time with the prefix's -- the prefix
# given to `cmake --install --prefix` too -- into INSTALL_DIR/NAME.  The
# template sees @ORMA_CFG_PREFIX@, @ORMA_CFG_INCLUDEDIR@ (orma.h's
# directory; bsp.h is in its orma/), @ORMA_CFG_LIBDIR@, @ORMA_CFG_BINDIR@,
# the same relative to ${prefix} where they are below it
# (@ORMA_CFG_PC_INCLUDEDIR@, @ORMA_CFG_PC_LIBDIR@, for pkg-config),
# @ORMA_CFG_CC@, @ORMA_CFG_FC@ (gfortran, for orma-caf), @ORMA_CFG_USER_FLAGS@,
# @ORMA_CFG_WHERE@ and @PROJECT_VERSION@.
function(orma_configure_file)
  cmake_parse_arguments(F "PROGRAM" "TEMPLATE;NAME;BUILD_DIR;INSTALL_DIR" "" ${ARGN})
  set(ORMA_CFG_CC ${CMAKE_C_COMPILER})
  find_program(ORMA_GFORTRAN gfortran)
  set(ORMA_CFG_FC gfortran)
  if(ORMA_GFORTRAN)
    set(ORMA_CFG_FC ${ORMA_GFORTRAN})
  endif()
  list(JOIN ORMA_USER_FLAGS " " ORMA_CFG_USER_FLAGS)
  set(ORMA_CFG_TEMPLATE ${F_TEMPLATE})
  set(ORMA_CFG_NAME ${F_NAME})
  set(ORMA_CFG_PROGRAM ${F_PROGRAM})
  set(code "")
  foreach(var PROJECT_VERSION ORMA_CFG_CC ORMA_CFG_FC ORMA_CFG_USER_FLAGS ORMA_CFG_TEMPLATE ORMA_CFG_NAME
              ORMA_CFG_PROGRAM)
    string(APPEND code "set(${var} [==[${${var}}]==])\n")
  endforeach()

  # The build tree's copy, now.
  set(ORMA_CFG_PREFIX ${CMAKE_BINARY_DIR})
  set(ORMA_CFG_INCLUDEDIR ${PROJECT_SOURCE_DIR}/include)
  set(ORMA_CFG_LIBDIR ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
  set(ORMA_CFG_BINDIR ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
  set(ORMA_CFG_WHERE "build tree")
  set(ORMA_CFG_OUT ${F_BUILD_DIR}/${F_NAME})
  include(${PROJECT_SOURCE_DIR}/cmake/configure-file.cmake)

  # The installed copy, by cmake_install.cmake, where CMAKE_INSTALL_PREFIX
  # is the prefix of that installation.
  foreach(var INCLUDEDIR LIBDIR BINDIR)
    string(APPEND code "set(ORMA_CFG_${var} [==[${CMAKE_INSTALL_${var}}]==])\n")
  endforeach()
  string(APPEND code "set(ORMA_CFG_DEST [==[${F_INSTALL_DIR}]==])\n"
                     "set(ORMA_CFG_STAGE [==[${CMAKE_BINARY_DIR}/install-files]==])\n"
                     "set(ORMA_CFG_WHERE installed)\n"
                     "set(ORMA_CFG_OUT \"\")\n")
  install(CODE "${code}")
  install(SCRIPT ${PROJECT_SOURCE_DIR}/cmake/configure-file.cmake)
endfunction()

# The CMake package, in the build tree (absolute paths) and installed
# (relative to its own directory: the prefix can move).
function(orma_package_config)
  set(in ${PROJECT_SOURCE_DIR}/cmake/ormaConfig.cmake.in)
  foreach(t orma bsp caf)
    set(target orma)
    if(NOT t STREQUAL "orma")
      set(target orma-${t})
    endif()
    get_target_property(ver ${target} VERSION)
    get_target_property(sover ${target} SOVERSION)
    set(so ${CMAKE_SHARED_LIBRARY_PREFIX}${target}${CMAKE_SHARED_LIBRARY_SUFFIX})
    set(ORMA_CONFIG_LIB_${t} ${so}.${ver})
    set(ORMA_CONFIG_SONAME_${t} ${so}.${sover})
  endforeach()
  list(JOIN ORMA_USER_FLAGS ";" ORMA_CONFIG_USER_FLAGS)
  set(vers ${CMAKE_BINARY_DIR}/lib/cmake/orma/ormaConfigVersion.cmake)
  write_basic_package_version_file(${vers} VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)

  set(ORMA_CONFIG_INCLUDEDIR ${PROJECT_SOURCE_DIR}/include)
  set(ORMA_CONFIG_LIBDIR ${CMAKE_LIBRARY_OUTPUT_DIRECTORY})
  set(ORMA_CONFIG_BINDIR ${CMAKE_RUNTIME_OUTPUT_DIRECTORY})
  configure_package_config_file(${in} ${CMAKE_BINARY_DIR}/lib/cmake/orma/ormaConfig.cmake
    INSTALL_DESTINATION ${CMAKE_BINARY_DIR}/lib/cmake/orma INSTALL_PREFIX ${CMAKE_BINARY_DIR}
    PATH_VARS ORMA_CONFIG_INCLUDEDIR ORMA_CONFIG_LIBDIR ORMA_CONFIG_BINDIR)

  set(ORMA_CONFIG_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR})
  set(ORMA_CONFIG_LIBDIR ${CMAKE_INSTALL_LIBDIR})
  set(ORMA_CONFIG_BINDIR ${CMAKE_INSTALL_BINDIR})
  set(out ${CMAKE_BINARY_DIR}/install-files/ormaConfig.cmake)
  configure_package_config_file(${in} ${out} INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/orma
    PATH_VARS ORMA_CONFIG_INCLUDEDIR ORMA_CONFIG_LIBDIR ORMA_CONFIG_BINDIR)
  install(FILES ${out} ${vers} DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/orma)
endfunction()

# After every target exists: what `cmake --install` installs.
function(orma_install_rules)
  # The libraries; the liborma-mpirun modules beside liborma, which opens
  # them from its own directory.  liborma-bsp finds liborma beside itself
  # too, whether or not the program names liborma (--as-needed).
  set(libs orma orma_static orma-bsp orma-caf)
  foreach(v ${ORMA_MPI_VARIANTS})
    list(APPEND libs orma-mpirun-${v} orma-mpi-${v}-SHARED orma-mpi-${v}-STATIC)
  endforeach()
  set_target_properties(orma-bsp orma-caf PROPERTIES INSTALL_RPATH "$ORIGIN")
  install(TARGETS ${libs}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  # The headers: orma.h, orma/bsp.h, and for programs on liborma-mpi
  # orma/mpix_notify.h and orma/mpi/mpi.h (a directory a program puts first
  # on its include path, whose mpi.h is the host's and then that one).
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
          FILES_MATCHING PATTERN "*.h")

  # The programs.  orma-run and orma-info carry orma statically; orma-bench
  # finds orma's libraries by its rpath, its MPI programs beside itself,
  # liborma-mpi in ../lib and its report's Python in ../share/orma-bench/.
  file(RELATIVE_PATH bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
  set_target_properties(orma-bench PROPERTIES INSTALL_RPATH "$ORIGIN/${bin_to_lib}")
  set(progs orma-run orma-info orma-bench)
  if(NOT ORMA_SANITIZE)
    foreach(v ${ORMA_MPI_VARIANTS})
      list(APPEND progs orma-bench-mpi-${v})
    endforeach()
  endif()
  install(TARGETS ${progs} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(PROGRAMS ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/orma-demo DESTINATION ${CMAKE_INSTALL_BINDIR})
  file(GLOB report_py ${PROJECT_SOURCE_DIR}/bench/report/*.py)
  install(FILES ${report_py} DESTINATION ${CMAKE_INSTALL_DATADIR}/orma-bench)

  # pkg-config and the CMake package.
  foreach(pc orma orma-bsp orma-caf)
    orma_configure_file(TEMPLATE ${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in NAME ${pc}.pc
                        BUILD_DIR ${CMAKE_BINARY_DIR}/lib/pkgconfig
                        INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
  endforeach()
  orma_package_config()
endfunction()
