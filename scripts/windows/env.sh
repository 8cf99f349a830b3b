# Sourced by scripts/test-windows.sh and scripts/dist.sh: the cross toolchain
# for Windows (and the macOS type-check) and the wine prefix the Windows
# tests run in. Rust's Windows std is not packaged by Debian, so it is built
# from rust-web-src with -Zbuild-std; rustup's toolchain stays the one for
# the Linux build.

WINDOWS_TARGET=x86_64-pc-windows-gnu
MACOS_TARGET=aarch64-apple-darwin
# One target directory for every cross build, apart from the Linux one.
CROSS_TARGET_DIR=${CROSS_TARGET_DIR:-$PWD/target/cross}
export WINEPREFIX=${WINEPREFIX:-$PWD/target/wineprefix}
export WINEDEBUG=${WINEDEBUG:--all}

# Installs the Debian packages the cross build and wine need (only those
# missing; rustc-web and rust-web-src in one command so their versions match).
ensure_windows_toolchain() {
  # clang and llvm (llvm-ar) for the macOS type-check: ring's build script
  # compiles its C for the target even under `cargo check`.
  local pkgs=(rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64-posix wine wine64 clang llvm)
  local missing=() pkg
  for pkg in "${pkgs[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    echo "windows: installing ${missing[*]}"
    local sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Debian's cargo/rustc (1.96, with the std sources) for a cross target,
# building std itself: "${cross_cargo[@]}" build -Zbuild-std=std,panic_abort ...
cross_cargo=(env RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
  CARGO_TARGET_DIR="$CROSS_TARGET_DIR"
  CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
  CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=wine
  CC_aarch64_apple_darwin=clang AR_aarch64_apple_darwin=llvm-ar
  "CFLAGS_aarch64_apple_darwin=-nostdlibinc -DRING_CORE_NOSTDLIBINC -I$(cd "$(dirname "${BASH_SOURCE[0]}")/../macos" && pwd)"
  /usr/bin/cargo)

# A wine prefix with the bcryptprimitives.dll stand-in (wine 8 lacks
# ProcessPrng, which every Rust .exe imports): built here from
# scripts/windows/bcryptprimitives.c, nothing downloaded.
ensure_wine_prefix() {
  local here dll system32
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  system32="$WINEPREFIX/drive_c/windows/system32"
  if [ ! -d "$system32" ]; then
    echo "windows: creating the wine prefix $WINEPREFIX"
    mkdir -p "$(dirname "$WINEPREFIX")"
    wineboot -i >/dev/null 2>&1 || true
    wineserver -w 2>/dev/null || true
  fi
  dll="$system32/bcryptprimitives.dll"
  if [ ! -f "$dll" ] || [ "$here/bcryptprimitives.c" -nt "$dll" ]; then
    x86_64-w64-mingw32-gcc -O2 -shared -o "$dll" \
      "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
  fi
  # Prefer the stand-in over any builtin wine may grow later.
  export WINEDLLOVERRIDES="bcryptprimitives=n,b${WINEDLLOVERRIDES:+;$WINEDLLOVERRIDES}"
}
