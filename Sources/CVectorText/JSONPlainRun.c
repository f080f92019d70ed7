// The runs of JSON string text that need no closer look, found 32 (or 16) bytes at a time.
//
// A byte ends the run when it is a quote, a backslash, a control character (below 0x20) or not
// ASCII (0x80 and above). Read as a signed byte, a byte of the last two kinds is below 0x20, so
// one signed comparison finds both, and two equality tests find the others.

#include "CVectorText.h"
#include "VectorLevel.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("avx2"))) static size_t run_end_avx2(const uint8_t *bytes, size_t start, size_t count) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i space = _mm256_set1_epi8(0x20);
  size_t position = start;
  while (count - position >= 32) {
    const __m256i chunk = _mm256_loadu_si256((const __m256i *)(bytes + position));
    const __m256i stops = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(chunk, quote), _mm256_cmpeq_epi8(chunk, backslash)),
        _mm256_cmpgt_epi8(space, chunk));
    const unsigned mask = (unsigned)_mm256_movemask_epi8(stops);
    if (mask != 0) return position + (size_t)__builtin_ctz(mask);
    position += 32;
  }
  return position;
}

static size_t run_end_sse2(const uint8_t *bytes, size_t start, size_t count) {
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i space = _mm_set1_epi8(0x20);
  size_t position = start;
  while (count - position >= 16) {
    const __m128i chunk = _mm_loadu_si128((const __m128i *)(bytes + position));
    const __m128i stops = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)),
                                       _mm_cmplt_epi8(chunk, space));
    const unsigned mask = (unsigned)_mm_movemask_epi8(stops);
    if (mask != 0) return position + (size_t)__builtin_ctz(mask);
    position += 16;
  }
  return position;
}

size_t deckport_json_plain_run_end(const uint8_t *bytes, size_t start, size_t count) {
  if (start >= count) return start;
  return deckport_vector_level() == 2 ? run_end_avx2(bytes, start, count) : run_end_sse2(bytes, start, count);
}

#else

size_t deckport_json_plain_run_end(const uint8_t *bytes, size_t start, size_t count) {
  (void)bytes;
  (void)count;
  return start;
}

#endif
