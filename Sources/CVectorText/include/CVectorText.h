#ifndef DECKPORT_CVECTORTEXT_H
#define DECKPORT_CVECTORTEXT_H

#include <stddef.h>
#include <stdint.h>

/// Decodes the leading blocks of 32 base64 characters (RFC 4648, `A-Z a-z 0-9 + /`) of the
/// `count` bytes at `text` into `output`, with vector instructions, and stops before the first
/// block holding anything else (padding, a character that is not base64) or when fewer than 32
/// characters are left. Returns the number of characters decoded, a multiple of 32; the bytes
/// written are three for every four characters. `output` must have room for `count / 4 * 3`
/// bytes and 4 more. Returns 0 where the processor has no suitable instructions.
size_t deckport_base64_decode_blocks(const uint8_t *text, size_t count, uint8_t *output);

/// The offset of the first byte at or after `start` (and before `count`) that ends a run of
/// plain JSON string text: a quote, a backslash, a control character or a byte that is not
/// ASCII, looked at 32 or 16 bytes at a time. It stops early, at a point from which fewer than
/// 16 bytes are left, without having found one: the caller looks at those bytes itself. On
/// processors without suitable instructions it returns `start`.
size_t deckport_json_plain_run_end(const uint8_t *bytes, size_t start, size_t count);

/// Where the JSON value starting at `start` (and ending before `count`) ends, found by its
/// structure alone: a string runs to the first quote not taken by a backslash (the byte after
/// each backslash is stepped over), brackets are counted, a number or literal runs to white
/// space or punctuation, and nothing else is looked at. Of valid JSON it gives the value's end.
/// Returns -1 when the bytes end first, when the value starts with a comma, colon or closing
/// bracket, or, unless `accepting_escapes`, when a string holds a backslash. With AVX2 it looks
/// at 32 bytes at a time.
ptrdiff_t deckport_json_structural_end(const uint8_t *bytes, size_t start, size_t count, int accepting_escapes);

/// The same as `deckport_json_structural_end`, a byte at a time, without vector instructions
/// (the tests compare the two).
ptrdiff_t deckport_json_structural_end_bytewise(const uint8_t *bytes, size_t start, size_t count,
                                                int accepting_escapes);

/// What kinds of byte the `count` bytes at `bytes` hold, as bits: 1 for an ASCII control
/// character other than tab and line feed, or DEL (0x7F); 2 for a byte of 0xCC or more (in
/// UTF-8, the lead byte of a character from U+0300 on); 4 for `<` or `[`. One pass over every
/// byte, which the compiler makes a vector loop on any processor.
unsigned deckport_text_bytes(const uint8_t *bytes, size_t count);

#endif
