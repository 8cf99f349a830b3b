/* A stand-in for bcryptprimitives.dll, which wine 8 lacks: Rust's std (since
 * 1.78) imports ProcessPrng from it, so every Rust .exe exits with code 53
 * under wine 8 without it. ProcessPrng is forwarded to RtlGenRandom
 * (advapi32!SystemFunction036). Built and installed into the wine prefix by
 * scripts/test-windows.sh; never shipped. */
#include <windows.h>
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);
BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x7fffffff ? 0x7fffffff : (ULONG)len;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
