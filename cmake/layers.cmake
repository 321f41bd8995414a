# Each layer is an object library whose include path holds its own directory
# and those of the layers below it only: an upward #include does not compile.
#   orma_layer(NAME SOURCES ... DEPS lower layers ...)
function(orma_layer name)
  cmake_parse_arguments(L "" "" "SOURCES;DEPS;LIBS" ${ARGN})
  add_library(orma_${name} OBJECT ${L_SOURCES})
  target_compile_options(orma_${name} PRIVATE ${ORMA_WARNINGS})
  target_include_directories(orma_${name} PUBLIC
    ${PROJECT_SOURCE_DIR}/include ${CMAKE_CURRENT_SOURCE_DIR})
  foreach(dep ${L_DEPS})
    target_link_libraries(orma_${name} PUBLIC orma_${dep})
  endforeach()
  if(L_LIBS)
    target_link_libraries(orma_${name} PUBLIC ${L_LIBS})
  endif()
endfunction()
