# Shared by run.sh and test.sh: install the Debian packages EpsilonLab needs (only the
# missing ones, as root or through sudo) and configure/build a CMake preset.

EPSILONLAB_PACKAGES=(
  g++ cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libgl-dev
  libeigen3-dev libtbb-dev zlib1g-dev nlohmann-json3-dev libcli11-dev libopenblas-pthread-dev libboost-dev libgif-dev
  libopenmpi-dev openmpi-bin
  fonts-dejavu-core
)

epsilonlab_install_packages() {
  local missing=()
  local pkg
  for pkg in "${EPSILONLAB_PACKAGES[@]}" "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "Installing Debian packages: ${missing[*]}"
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "error: need root or sudo to install: ${missing[*]}" >&2
      return 1
    fi
  fi
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
}

# epsilonlab_build PRESET [targets...]; extra configure options in the array EPSILONLAB_CONFIGURE_ARGS.
epsilonlab_build() {
  local preset=$1
  shift
  cmake --preset "$preset" "${EPSILONLAB_CONFIGURE_ARGS[@]}" >/dev/null
  cmake --build --preset "$preset" -j"$(nproc)" ${1:+--target "$@"}
}
