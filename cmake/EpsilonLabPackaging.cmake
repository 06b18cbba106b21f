# Installation (cmake --install) and the Debian package (cpack -G DEB): the GUI and the CLI in
# bin/, the desktop entry, the icon and the AppStream metadata in the freedesktop places.
# The package's dependencies come from the binaries' linked libraries (dpkg-shlibdeps) plus
# the Qt platform plugins a window needs and a font for the charts.
include(GNUInstallDirs)

set(EPSILONLAB_APP_ID io.github.epsilonlab.EpsilonLab)
install(TARGETS epsilonlab-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(EPSILONLAB_BUILD_GUI)
  install(TARGETS epsilonlab RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES resources/desktop/${EPSILONLAB_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES resources/desktop/${EPSILONLAB_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
  install(FILES resources/icons/${EPSILONLAB_APP_ID}.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()
install(FILES README.md docs/MATH.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_PACKAGE_NAME epsilonlab)
set(CPACK_PACKAGE_VENDOR "EpsilonLab")
set(CPACK_PACKAGE_CONTACT "EpsilonLab developers <epsilonlab@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins, fonts-dejavu-core")
# Loaded on first use by DP-SGD (dlopen), so dpkg-shlibdeps does not see it; without it Eigen
# computes the same products, slower.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenblas0-pthread")
set(CPACK_PACKAGE_DESCRIPTION
    "EpsilonLab trains differentially private models and shows, live, what the privacy parameter epsilon does: utility, stability, decision regions, DP-SGD privacy accounting and an empirical privacy audit. Includes the command-line tool epsilonlab-cli.")
include(CPack)
