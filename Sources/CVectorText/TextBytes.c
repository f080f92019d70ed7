// What kinds of byte a text holds, found in one pass over all of it. The loop has no early exit
// and ORs branch-free comparisons, so the compiler turns it into vector instructions (16 or 32
// bytes at a time) on every processor.

#include "CVectorText.h"

unsigned deckport_text_bytes(const uint8_t *bytes, size_t count) {
  uint8_t control = 0, nfc_candidate = 0, markup = 0;
  for (size_t index = 0; index < count; index++) {
    const uint8_t byte = bytes[index];
    control |= (uint8_t)(((byte < 0x20) & (byte != 0x09) & (byte != 0x0A)) | (byte == 0x7F));
    nfc_candidate |= (uint8_t)(byte >= 0xCC);
    markup |= (uint8_t)((byte == '<') | (byte == '['));
  }
  return (unsigned)control | ((unsigned)nfc_candidate << 1) | ((unsigned)markup << 2);
}
