// Where a JSON value ends, found by its structure alone: strings and brackets, nothing checked.
//
// The walk keeps two things: how deep in brackets it is, and whether it is inside a string
// (where only a quote, which ends it, and a backslash, which takes the next byte with it,
// matter). With AVX2 the quotes, backslashes and brackets of 32 bytes are found at once and
// taken in order, so the bytes between them (keys, numbers, indentation) cost nothing each;
// the last few bytes, and processors without AVX2, take the same walk a byte at a time.

#include "CVectorText.h"

/// Nonzero for the bytes that matter outside a string: a quote and the four brackets.
static const uint8_t structural[256] = {
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};

/// Nonzero for the bytes that end a number or literal: white space and the punctuation.
static const uint8_t ends_scalar[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [','] = 1, [':'] = 1,
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};

/// The walk from `position`, `depth` brackets deep and inside a string or not, a byte at a time:
/// where the value ends (a bracket closing the first, or a string closing at depth 0), or -1.
static ptrdiff_t walk(const uint8_t *bytes, size_t position, size_t count, size_t depth, int in_string,
                      int accepting_escapes) {
  while (position < count) {
    if (in_string) {
      while (position < count && bytes[position] != '"' && bytes[position] != '\\') position++;
      if (position >= count) return -1;
      if (bytes[position] == '\\') {
        if (!accepting_escapes) return -1;
        position += 2;
        continue;
      }
      position++;
      in_string = 0;
      if (depth == 0) return (ptrdiff_t)position;
      continue;
    }
    const uint8_t byte = bytes[position];
    if (byte == '"') {
      in_string = 1;
      position++;
    } else if (byte == '{' || byte == '[') {
      depth++;
      position++;
    } else if (byte == '}' || byte == ']') {
      // `depth` is at least 1 here: the walk ends when it comes back to 0.
      depth--;
      position++;
      if (depth == 0) return (ptrdiff_t)position;
    } else {
      position++;
      while (position < count && !structural[bytes[position]]) position++;
    }
  }
  return -1;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "VectorLevel.h"

/// The walk of `walk`, 32 bytes at a time while that many are left.
__attribute__((target("avx2"))) static ptrdiff_t walk_avx2(const uint8_t *bytes, size_t position, size_t count,
                                                           size_t depth, int in_string, int accepting_escapes) {
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i open_brace = _mm256_set1_epi8('{');
  const __m256i open_bracket = _mm256_set1_epi8('[');
  const __m256i close_brace = _mm256_set1_epi8('}');
  const __m256i close_bracket = _mm256_set1_epi8(']');
  // Bytes before this one are taken already (the byte after a backslash).
  size_t taken = position;
  size_t block = position;
  while (count - block >= 32) {
    const __m256i chunk = _mm256_loadu_si256((const __m256i *)(bytes + block));
    const uint32_t quotes = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(chunk, quote));
    const uint32_t backslashes = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(chunk, backslash));
    const uint32_t opens = (uint32_t)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(chunk, open_brace), _mm256_cmpeq_epi8(chunk, open_bracket)));
    const uint32_t closes = (uint32_t)_mm256_movemask_epi8(
        _mm256_or_si256(_mm256_cmpeq_epi8(chunk, close_brace), _mm256_cmpeq_epi8(chunk, close_bracket)));
    // Every quote, backslash and bracket of the block, in order; inside a string, brackets are
    // passed by, and outside one, backslashes.
    uint32_t left = quotes | backslashes | opens | closes;
    while (left != 0) {
      const unsigned bit = (unsigned)__builtin_ctz(left);
      left &= left - 1;
      const size_t at = block + bit;
      if (at < taken) continue;
      const uint32_t mask = 1u << bit;
      if (in_string) {
        if (mask & quotes) {
          in_string = 0;
          if (depth == 0) return (ptrdiff_t)(at + 1);
        } else if (mask & backslashes) {
          if (!accepting_escapes) return -1;
          taken = at + 2;
        }
      } else if (mask & quotes) {
        in_string = 1;
      } else if (mask & opens) {
        depth++;
      } else if (mask & closes) {
        depth--;
        if (depth == 0) return (ptrdiff_t)(at + 1);
      }
    }
    block += 32;
  }
  return walk(bytes, taken > block ? taken : block, count, depth, in_string, accepting_escapes);
}

#endif

/// Where the value at `start` ends: the walk with vector instructions when `vectors` and the
/// processor has AVX2, else a byte at a time.
static ptrdiff_t structural_end(const uint8_t *bytes, size_t start, size_t count, int accepting_escapes,
                                int vectors) {
  if (start >= count) return -1;
  const uint8_t first = bytes[start];
  if (first == ',' || first == ':' || first == '}' || first == ']') return -1;
  if (!structural[first]) {
    // A number or literal: up to the first byte that ends one.
    size_t position = start + 1;
    while (position < count && !ends_scalar[bytes[position]]) position++;
    return (ptrdiff_t)position;
  }
  const size_t depth = first == '"' ? 0 : 1;
  const int in_string = first == '"';
#if defined(__x86_64__) || defined(__i386__)
  if (vectors && deckport_vector_level() == 2) {
    return walk_avx2(bytes, start + 1, count, depth, in_string, accepting_escapes);
  }
#else
  (void)vectors;
#endif
  return walk(bytes, start + 1, count, depth, in_string, accepting_escapes);
}

ptrdiff_t deckport_json_structural_end(const uint8_t *bytes, size_t start, size_t count, int accepting_escapes) {
  return structural_end(bytes, start, count, accepting_escapes, 1);
}

ptrdiff_t deckport_json_structural_end_bytewise(const uint8_t *bytes, size_t start, size_t count,
                                                int accepting_escapes) {
  return structural_end(bytes, start, count, accepting_escapes, 0);
}
