#include "CBuildInfo.h"

// BuildCommit.h is written by scripts/setup.sh (and left out of git); it defines
// DECKPORT_BUILD_COMMIT. A build without it reports "unknown".
#if __has_include("BuildCommit.h")
#include "BuildCommit.h"
#endif

#ifndef DECKPORT_BUILD_COMMIT
#define DECKPORT_BUILD_COMMIT "unknown"
#endif

const char *deckport_build_commit(void) { return DECKPORT_BUILD_COMMIT; }
