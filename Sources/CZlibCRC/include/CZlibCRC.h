#ifndef DECKPORT_CZLIBCRC_H
#define DECKPORT_CZLIBCRC_H

/// 1 when the `crc32` the process's libraries call (libzip's, through the dynamic linker) is
/// this target's, which answers with libdeflate; 0 when they call zlib's own.
int deckport_zlib_crc32_is_libdeflate(void);

#endif
