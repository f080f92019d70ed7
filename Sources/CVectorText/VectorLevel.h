#ifndef DECKPORT_VECTOR_LEVEL_H
#define DECKPORT_VECTOR_LEVEL_H

/// The vector instructions this processor has, found once: 2 for AVX2, 1 for SSSE3, 0 for
/// neither (and on processors other than x86).
int deckport_vector_level(void);

#endif
