// Vectorised base64 decoding of whole 32-character blocks; the caller decodes the rest (and
// reports every error) with its scalar decoder.
//
// Each character is split into its high and low nibble. Two 16-entry tables, indexed by the
// nibbles, give bit sets whose AND is non-zero exactly when the character is not base64: one
// bit per class of high nibble (2: '+' and '/', 3: digits, 4 and 6: A-O and a-o, 5 and 7: P-Z
// and p-z, anything else), set in the low-nibble table for the low nibbles that class does not
// allow. A third table, indexed by the high nibble (one less for '/'), gives what to add to the
// character to get its six bits. Multiply-adds then join four sextets into 24 bits, and a byte
// shuffle puts the three bytes of each group in order.

#include "CVectorText.h"
#include "VectorLevel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define DECKPORT_TABLES                                                                            \
  const __m128i low_table = _mm_setr_epi8(0x15, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x11,  \
                                          0x11, 0x13, 0x1A, 0x1B, 0x1B, 0x1B, 0x1A);             \
  const __m128i high_table = _mm_setr_epi8(0x10, 0x10, 0x01, 0x02, 0x04, 0x08, 0x04, 0x08, 0x10, \
                                           0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x10);            \
  const __m128i shift_table = _mm_setr_epi8(0, 16, 19, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0,  \
                                            0, 0);                                               \
  const __m128i order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);

__attribute__((target("avx2"))) static size_t decode_avx2(const uint8_t *text, size_t count, uint8_t *output) {
  DECKPORT_TABLES
  const __m256i lows = _mm256_broadcastsi128_si256(low_table);
  const __m256i highs = _mm256_broadcastsi128_si256(high_table);
  const __m256i shifts = _mm256_broadcastsi128_si256(shift_table);
  const __m256i orders = _mm256_broadcastsi128_si256(order);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i slash = _mm256_set1_epi8('/');
  const __m256i pairs = _mm256_set1_epi32(0x01400140);
  const __m256i quads = _mm256_set1_epi32(0x00011000);
  size_t done = 0;
  while (count - done >= 32) {
    const __m256i characters = _mm256_loadu_si256((const __m256i *)(text + done));
    const __m256i high = _mm256_and_si256(_mm256_srli_epi32(characters, 4), nibble);
    const __m256i low = _mm256_and_si256(characters, nibble);
    const __m256i bad = _mm256_and_si256(_mm256_shuffle_epi8(lows, low), _mm256_shuffle_epi8(highs, high));
    if (!_mm256_testz_si256(bad, bad)) break;
    const __m256i index = _mm256_add_epi8(high, _mm256_cmpeq_epi8(characters, slash));
    const __m256i sextets = _mm256_add_epi8(characters, _mm256_shuffle_epi8(shifts, index));
    const __m256i joined = _mm256_madd_epi16(_mm256_maddubs_epi16(sextets, pairs), quads);
    const __m256i bytes = _mm256_shuffle_epi8(joined, orders);
    uint8_t *out = output + done / 4 * 3;
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(bytes));
    _mm_storeu_si128((__m128i *)(out + 12), _mm256_extracti128_si256(bytes, 1));
    done += 32;
  }
  return done;
}

__attribute__((target("ssse3"))) static size_t decode_ssse3(const uint8_t *text, size_t count, uint8_t *output) {
  DECKPORT_TABLES
  const __m128i nibble = _mm_set1_epi8(0x0F);
  const __m128i slash = _mm_set1_epi8('/');
  const __m128i pairs = _mm_set1_epi32(0x01400140);
  const __m128i quads = _mm_set1_epi32(0x00011000);
  size_t done = 0;
  while (count - done >= 32) {
    int valid = 1;
    __m128i results[2];
    for (int half = 0; half < 2; half++) {
      const __m128i characters = _mm_loadu_si128((const __m128i *)(text + done + 16 * half));
      const __m128i high = _mm_and_si128(_mm_srli_epi32(characters, 4), nibble);
      const __m128i low = _mm_and_si128(characters, nibble);
      const __m128i bad = _mm_and_si128(_mm_shuffle_epi8(low_table, low), _mm_shuffle_epi8(high_table, high));
      if (_mm_movemask_epi8(_mm_cmpeq_epi8(bad, _mm_setzero_si128())) != 0xFFFF) valid = 0;
      const __m128i index = _mm_add_epi8(high, _mm_cmpeq_epi8(characters, slash));
      const __m128i sextets = _mm_add_epi8(characters, _mm_shuffle_epi8(shift_table, index));
      results[half] = _mm_shuffle_epi8(_mm_madd_epi16(_mm_maddubs_epi16(sextets, pairs), quads), order);
    }
    if (!valid) break;
    uint8_t *out = output + done / 4 * 3;
    _mm_storeu_si128((__m128i *)out, results[0]);
    _mm_storeu_si128((__m128i *)(out + 12), results[1]);
    done += 32;
  }
  return done;
}

size_t deckport_base64_decode_blocks(const uint8_t *text, size_t count, uint8_t *output) {
  switch (deckport_vector_level()) {
  case 2: return decode_avx2(text, count, output);
  case 1: return decode_ssse3(text, count, output);
  default: return 0;
  }
}

#else

size_t deckport_base64_decode_blocks(const uint8_t *text, size_t count, uint8_t *output) {
  (void)text;
  (void)count;
  (void)output;
  return 0;
}

#endif
