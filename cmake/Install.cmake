# What `cmake --install` puts under the prefix (docs/install.md):
#   bin/       the eight tools (stripped unless the build type is Debug)
#   lib/       libdisvm.so and libdisvm.a: the VM, the assembler and the
#              Limbo compiler, for embedding
#   include/disvm/  the embedding API's headers
#   lib/cmake/disvm/, lib/pkgconfig/disvm.pc: find_package(disvm), pkg-config
#   share/dis/module, share/dis/bench-suite: what the tools read at run time
#   share/man/man1, man3; share/doc/disvm: LICENSE, README
# cpack -G DEB packages the same tree.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The library's parts, bottom layer first; each is a static library of the
# tools' build, so the shared and the static libdisvm reuse their objects
# (the whole build is position-independent for that: CMakeLists.txt).
set(disvm_parts dis_isa dis_asm dis_limbo dis_vm_mem dis_vm_core dis_vm_builtins dis_vm dis_embed)
set(disvm_objects)
foreach(part ${disvm_parts})
  list(APPEND disvm_objects $<TARGET_OBJECTS:${part}>)
endforeach()
add_library(disvm SHARED ${disvm_objects})
target_link_libraries(disvm PRIVATE fmt::fmt OpenSSL::Crypto Threads::Threads)
set_target_properties(disvm PROPERTIES VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
                                       LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
add_library(disvm_static STATIC ${disvm_objects})
set_target_properties(disvm_static PROPERTIES OUTPUT_NAME disvm
                                              ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")

# The embedding layer (embed.h) and the VM's API below it (vm.h) with what
# they include, plus the compiler's and the assembler's entry points; all
# include each other by bare name, so they sit in one folder.
set(disvm_headers
  embed/embed.h embed/embed_error.h embed/embed_module.h embed/embed_types.h
  isa/diag.h isa/module.h isa/opcodes.h isa/opcodes.def isa/utf8.h
  asm/assembler.h asm/sbl.h asm/signature.h
  limbo/compiler.h
  vm/core/fd_group.h vm/core/name_space.h vm/core/vm.h vm/mem/arrays_lists.h vm/mem/cage.h vm/mem/dis_string.h vm/mem/fault_injection.h
  vm/mem/gc.h vm/mem/heap.h vm/mem/unfinished.h)
list(TRANSFORM disvm_headers PREPEND "${CMAKE_SOURCE_DIR}/")
install(FILES ${disvm_headers} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/disvm COMPONENT dev)
install(TARGETS disvm disvm_static
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})

# Run-time data: the tools find these relative to their own directory.
install(DIRECTORY module/ DESTINATION ${CMAKE_INSTALL_DATADIR}/dis/module FILES_MATCHING PATTERN "*.m")
install(DIRECTORY samples/bench-suite/ DESTINATION ${CMAKE_INSTALL_DATADIR}/dis/bench-suite)
install(FILES LICENSE README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB man1_pages CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/docs/man/*.1")
file(GLOB man3_pages CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/docs/man/*.3")
install(FILES ${man1_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${man3_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man3)

# find_package(disvm): imported targets disvm::disvm (shared) and
# disvm::disvm_static, written by hand so the package does not depend on
# how the tree builds its parts.
set(disvm_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/disvm)
configure_package_config_file(cmake/install/disvmConfig.cmake.in
  "${CMAKE_BINARY_DIR}/install/disvmConfig.cmake"
  INSTALL_DESTINATION ${disvm_cmake_dir}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR CMAKE_INSTALL_LIBDIR CMAKE_INSTALL_DATADIR)
write_basic_package_version_file("${CMAKE_BINARY_DIR}/install/disvmConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${CMAKE_BINARY_DIR}/install/disvmConfig.cmake"
              "${CMAKE_BINARY_DIR}/install/disvmConfigVersion.cmake"
        DESTINATION ${disvm_cmake_dir})
# pkg-config: relocatable through ${pcfiledir}.
file(RELATIVE_PATH disvm_pc_to_prefix "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
configure_file(cmake/install/disvm.pc.in "${CMAKE_BINARY_DIR}/install/disvm.pc" @ONLY)
install(FILES "${CMAKE_BINARY_DIR}/install/disvm.pc" DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# cpack -G DEB: one package of the whole install tree.
set(CPACK_PACKAGE_NAME disvm)
set(CPACK_PACKAGE_VENDOR "disvm")
set(CPACK_PACKAGE_CONTACT "disvm maintainers <disvm@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Dis virtual machine, Limbo compiler and interpreter-measuring tools")
set(CPACK_RESOURCE_FILE_LICENSE "${CMAKE_SOURCE_DIR}/LICENSE")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The run-time libraries the tools link, as Debian names them on bookworm.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_GENERATOR DEB)
include(CPack)
