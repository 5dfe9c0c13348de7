# dis_library(NAME DEPS...): a static library of every *.cpp of the calling
# folder except tool mains (*_main.cpp), its headers found by bare name by
# whatever links it. dis_tool(NAME LIBS...): the executable NAME from
# NAME_main.cpp. dis_tools(LIB): one executable per *_main.cpp, linked with LIB.
function(dis_library name)
  file(GLOB srcs CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*.cpp")
  list(FILTER srcs EXCLUDE REGEX "_main\\.cpp$")
  add_library(${name} STATIC ${srcs})
  target_include_directories(${name} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${name} PUBLIC ${ARGN})
  target_compile_definitions(${name} PRIVATE
    DIS_VERSION="${PROJECT_VERSION}"
    DIS_SOURCE_DIR="${CMAKE_SOURCE_DIR}")
endfunction()

function(dis_tool tool)
  add_executable(${tool} "${CMAKE_CURRENT_SOURCE_DIR}/${tool}_main.cpp")
  target_link_libraries(${tool} PRIVATE ${ARGN} CLI11::CLI11)
  target_compile_definitions(${tool} PRIVATE DIS_VERSION="${PROJECT_VERSION}")
  set_target_properties(${tool} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  install(TARGETS ${tool} RUNTIME DESTINATION bin)
endfunction()

function(dis_tools lib)
  file(GLOB mains CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/*_main.cpp")
  foreach(main ${mains})
    get_filename_component(stem "${main}" NAME_WE)
    string(REGEX REPLACE "_main$" "" tool "${stem}")
    dis_tool(${tool} ${lib})
  endforeach()
endfunction()
