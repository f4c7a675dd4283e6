/*
 * ProcessPrng for Wine 8, which Debian 12 packages and which lacks bcryptprimitives.dll.
 *
 * Rust's standard library takes the random keys of its hash maps from ProcessPrng in
 * bcryptprimitives.dll, which every supported Windows has; without it no Rust program starts
 * under that Wine. CI builds this stand-in with MinGW and puts it in its Wine prefix only: it is
 * never shipped. It fills the buffer from RtlGenRandom (advapi32's SystemFunction036), Windows'
 * older source of the same randomness.
 */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG chunk = len > 0x10000000 ? 0x10000000 : (ULONG)len;
        if (!RtlGenRandom(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        len -= chunk;
    }
    return TRUE;
}
