#include "CMappedPages.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

// A range is claimed by setting its end, then published by setting its start; the handler
// only looks at ranges whose start is set. Both are cleared, start first, to let it go.
enum { slot_count = 256 };
static _Atomic(uintptr_t) range_start[slot_count];
static _Atomic(uintptr_t) range_end[slot_count];
static _Atomic(int) range_failed[slot_count];

static struct sigaction previous_bus_action;
static uintptr_t page_size;
static pthread_once_t installed = PTHREAD_ONCE_INIT;

/// Hands a fault that is not in a watched range to whoever handled SIGBUS before.
static void pass_on(int signal_number, siginfo_t *info, void *context) {
  if ((previous_bus_action.sa_flags & SA_SIGINFO) && previous_bus_action.sa_sigaction != NULL) {
    previous_bus_action.sa_sigaction(signal_number, info, context);
    return;
  }
  if (previous_bus_action.sa_handler != SIG_DFL && previous_bus_action.sa_handler != SIG_IGN) {
    previous_bus_action.sa_handler(signal_number);
    return;
  }
  // The default action: returning runs the faulting instruction again, which now ends the process.
  signal(SIGBUS, SIG_DFL);
}

static void on_bus_error(int signal_number, siginfo_t *info, void *context) {
  uintptr_t address = (uintptr_t)info->si_addr;
  for (int slot = 0; slot < slot_count; slot++) {
    uintptr_t start = atomic_load(&range_start[slot]);
    if (start == 0 || address < start) continue;
    uintptr_t end = atomic_load(&range_end[slot]);
    if (address >= end) continue;
    // Zeros from the faulting page to the end of the range: a shortened file is short from
    // there on, and every later read of the range then finds a page without faulting again.
    uintptr_t page = address & ~(page_size - 1);
    size_t length = (size_t)((end + page_size - 1) / page_size * page_size - page);
    void *zeros = mmap((void *)page, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (zeros == MAP_FAILED) break;
    atomic_store(&range_failed[slot], 1);
    return;
  }
  pass_on(signal_number, info, context);
}

static void install_handler(void) {
  page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_bus_error;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, &previous_bus_action);
}

int deckport_mapped_pages_watch(const void *start, size_t length) {
  if (start == NULL || length == 0) return -1;
  pthread_once(&installed, install_handler);
  for (int slot = 0; slot < slot_count; slot++) {
    uintptr_t free_end = 0;
    if (!atomic_compare_exchange_strong(&range_end[slot], &free_end, (uintptr_t)start + length)) continue;
    atomic_store(&range_failed[slot], 0);
    atomic_store(&range_start[slot], (uintptr_t)start);
    return slot;
  }
  return -1;
}

int deckport_mapped_pages_failed(int handle) {
  if (handle < 0 || handle >= slot_count) return 0;
  return atomic_load(&range_failed[handle]);
}

void deckport_mapped_pages_unwatch(int handle) {
  if (handle < 0 || handle >= slot_count) return;
  atomic_store(&range_start[handle], 0);
  atomic_store(&range_end[handle], 0);
}
