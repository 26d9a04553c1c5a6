# `cmake --install` and the .deb: the programs in bin/, resources/ (engines/, profiles/, studies/) in
# share/ayar/. The programs find both from their own folder (core/engines/resources_dir.h; ayar-cli
# starts the ayar-engine beside it), so any prefix works without configuration.

# Every program a user runs. The GUI (`ayar`) is installed as soon as its target exists.
foreach(program ayar-cli ayar-engine ayar)
  if(TARGET ${program})
    install(TARGETS ${program} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/resources/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ayar)
install(FILES ${CMAKE_CURRENT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/ayar)

# `cpack -G DEB` (or the `package` target): a Debian package whose Depends are the runtime libraries
# the programs link (libcurl4, libsqlite3-0, libpcre2-8-0, libstdc++6, ...), as dpkg-shlibdeps finds
# them on the build machine; build on Debian 12 for Debian 12.
set(AYAR_PACKAGE_MAINTAINER "Ayar developers <ayar@example.invalid>" CACHE STRING
  "Maintainer field of the .deb")
set(CPACK_PACKAGE_NAME ayar)
set(CPACK_PACKAGE_VENDOR Ayar)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Workbench for tuning LLM serving performance (vLLM-compatible load tests, bundled engine)")
set(CPACK_PACKAGE_DESCRIPTION
  "ayar-cli runs load tests against OpenAI-compatible LLM servers with the metrics and flags of \
`vllm bench serve`, keeps every run in a local store and imports results from vLLM, guidellm and \
AIPerf. ayar-engine is the bundled inference engine (CPU reference backend and timing simulator).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${AYAR_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
