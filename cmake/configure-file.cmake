# One file of orma_configure_file (install.cmake): ORMA_CFG_TEMPLATE
# configured (@ONLY) as ORMA_CFG_NAME, with the paths of the build tree
# (ORMA_CFG_OUT set: included at configure time) or of the install prefix
# (ORMA_CFG_OUT empty: run by cmake_install.cmake, the directories relative
# to CMAKE_INSTALL_PREFIX unless absolute; the file is installed into
# ORMA_CFG_DEST, DESTDIR honoured).

if(NOT ORMA_CFG_OUT)
  set(ORMA_CFG_PREFIX "${CMAKE_INSTALL_PREFIX}")
  foreach(var INCLUDEDIR LIBDIR BINDIR DEST)
    if(NOT IS_ABSOLUTE "${ORMA_CFG_${var}}")
      set(ORMA_CFG_${var} "${CMAKE_INSTALL_PREFIX}/${ORMA_CFG_${var}}")
    endif()
  endforeach()
endif()

# pkg-config files name their directories by ${prefix} where they can.
foreach(var INCLUDEDIR LIBDIR)
  set(ORMA_CFG_PC_${var} "${ORMA_CFG_${var}}")
  string(FIND "${ORMA_CFG_${var}}/" "${ORMA_CFG_PREFIX}/" at)
  if(at EQUAL 0)
    string(LENGTH "${ORMA_CFG_PREFIX}" n)
    string(SUBSTRING "${ORMA_CFG_${var}}" ${n} -1 rest)
    set(ORMA_CFG_PC_${var} "\${prefix}${rest}")
  endif()
endforeach()

# ... and add the flags for the program after one space, when there are any.
set(ORMA_CFG_PC_USER_FLAGS "")
if(ORMA_CFG_USER_FLAGS)
  set(ORMA_CFG_PC_USER_FLAGS " ${ORMA_CFG_USER_FLAGS}")
endif()

if(ORMA_CFG_PROGRAM)
  set(perms OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  set(type PROGRAM)
else()
  set(perms OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
  set(type FILE)
endif()

if(ORMA_CFG_OUT)
  configure_file("${ORMA_CFG_TEMPLATE}" "${ORMA_CFG_OUT}" @ONLY FILE_PERMISSIONS ${perms})
else()
  # Staged under a name of its own per prefix: installations into two
  # prefixes at once do not share the staged file.
  string(MD5 tag "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}/${ORMA_CFG_NAME}")
  set(staged "${ORMA_CFG_STAGE}/${tag}/${ORMA_CFG_NAME}")
  configure_file("${ORMA_CFG_TEMPLATE}" "${staged}" @ONLY FILE_PERMISSIONS ${perms})
  file(INSTALL DESTINATION "${ORMA_CFG_DEST}" TYPE ${type} FILES "${staged}")
endif()
