// zlib's `crc32` and `crc32_z`, answered by libdeflate.
//
// libzip takes the CRC-32 of every member it reads or writes uncompressed ("stored") by calling
// zlib's `crc32`, and offers no way to hand it one already taken. zlib computes it at about
// 2.7 GB/s on this machine, libdeflate at about 11 (docs/performance.md, "libzip's CRC-32").
// Defined in the deckport executable, these two functions come before zlib's in the dynamic
// linker's search order, so libzip's calls land here (ELF symbol interposition): the same
// results, four times as fast. Only the executable links this target; an app that embeds the
// library keeps zlib's. On Apple systems, where each library binds to the one it was linked
// with, libzip keeps zlib's too and these go unused.
//
// The signatures are zlib's own (from <zlib.h>), and so is the rule for a null buffer: it asks
// for the initial value, 0.

#include <dlfcn.h>
#include <libdeflate.h>
#include <zlib.h>

#include "CZlibCRC.h"

uLong crc32(uLong crc, const Bytef *buf, uInt len) {
  if (buf == Z_NULL) return 0;
  return libdeflate_crc32((uint32_t)crc, buf, len);
}

uLong crc32_z(uLong crc, const Bytef *buf, z_size_t len) {
  if (buf == Z_NULL) return 0;
  return libdeflate_crc32((uint32_t)crc, buf, len);
}

int deckport_zlib_crc32_is_libdeflate(void) {
  return dlsym(RTLD_DEFAULT, "crc32") == (void *)crc32;
}
