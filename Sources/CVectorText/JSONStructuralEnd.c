// Where a JSON value ends, found by its structure alone: strings and brackets, nothing checked.
//
// A table marks the bytes that matter outside strings (a quote and the four brackets); the
// bytes between them are stepped over in a tight loop, as are those of a string up to its
// closing quote or a backslash. This is not vectorised: the values it is used on (a deck's
// cards and reviews) are mostly short keys and numbers, where setting up vectors costs more
// than it saves.

#include "CVectorText.h"

/// Nonzero for the bytes that open or close something: a quote and the four brackets.
static const uint8_t structural[256] = {
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};

/// Nonzero for the bytes that end a number or literal: white space and the punctuation.
static const uint8_t ends_scalar[256] = {
    [' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1, [','] = 1, [':'] = 1,
    ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1,
};

ptrdiff_t deckport_json_structural_end(const uint8_t *bytes, size_t start, size_t count, int accepting_escapes) {
  if (start >= count) return -1;
  const uint8_t first = bytes[start];
  if (first == ',' || first == ':' || first == '}' || first == ']') return -1;
  if (!structural[first]) {
    // A number or literal: up to the first byte that ends one.
    size_t position = start + 1;
    while (position < count && !ends_scalar[bytes[position]]) position++;
    return (ptrdiff_t)position;
  }
  size_t depth = 0;
  size_t position = start;
  while (position < count) {
    const uint8_t byte = bytes[position];
    if (byte == '"') {
      position++;
      for (;;) {
        while (position < count && bytes[position] != '"' && bytes[position] != '\\') position++;
        if (position >= count) return -1;
        if (bytes[position] == '"') break;
        if (!accepting_escapes) return -1;
        position += 2;
      }
      position++;
      if (depth == 0) return (ptrdiff_t)position;
    } else if (byte == '{' || byte == '[') {
      depth++;
      position++;
    } else if (byte == '}' || byte == ']') {
      // `depth` is at least 1 here: the value opened with a bracket, and it ends when it is 0.
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
