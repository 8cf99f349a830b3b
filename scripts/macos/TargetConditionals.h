/* Stand-in for the one Apple SDK header ring's C code includes, used only
 * by the macOS type-check in scripts/test-windows.sh: there is no Apple SDK
 * here, and a `cargo check` still runs ring's build script, which compiles
 * its C for the target. The objects are never linked. */
#ifndef UCI960_TARGET_CONDITIONALS_H
#define UCI960_TARGET_CONDITIONALS_H
#define TARGET_OS_MAC 1
#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0
#define TARGET_OS_IOS 0
#define TARGET_OS_TV 0
#define TARGET_OS_WATCH 0
#define TARGET_OS_SIMULATOR 0
#endif
