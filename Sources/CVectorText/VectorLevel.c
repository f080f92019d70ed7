#include "VectorLevel.h"

int deckport_vector_level(void) {
#if defined(__x86_64__) || defined(__i386__)
  static int level = -1;  // a benign race: every thread finds the same
  if (level < 0) {
    __builtin_cpu_init();
    level = __builtin_cpu_supports("avx2") ? 2 : __builtin_cpu_supports("ssse3") ? 1 : 0;
  }
  return level;
#else
  return 0;
#endif
}
