#ifndef DECKPORT_CBUILDINFO_H
#define DECKPORT_CBUILDINFO_H

/// The git commit deckport was built from (`a1b2c3d4e5f6`, with `-dirty` when the work tree had
/// changes), or `unknown` when the build did not record it. scripts/setup.sh records it in
/// BuildCommit.h beside BuildInfo.c (not kept in git).
const char *deckport_build_commit(void);

#endif
