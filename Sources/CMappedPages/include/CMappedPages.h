#ifndef DECKPORT_CMAPPEDPAGES_H
#define DECKPORT_CMAPPEDPAGES_H

#include <stddef.h>

/// Watches the `length` bytes mapped from a file at `start`: if reading one of their pages
/// faults (SIGBUS: the file was shortened by another process after it was mapped, or the disk
/// could not give the page back), that page and the rest of the range are replaced with zeros,
/// the range is marked as failed, and the read goes on instead of ending the process. A fault
/// anywhere else is passed to the handler that was there before (or ends the process as it
/// would have). Returns a handle for the other two functions, or -1 when every one of the
/// slots is taken (the range is then not watched).
int deckport_mapped_pages_watch(const void *start, size_t length);

/// Whether a page of the watched range `handle` faulted since it was watched.
int deckport_mapped_pages_failed(int handle);

/// Stops watching the range `handle` (before it is unmapped).
void deckport_mapped_pages_unwatch(int handle);

#endif
