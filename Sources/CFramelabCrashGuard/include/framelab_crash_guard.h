/* Why this exists: a plugin run in the host process (without --isolate) is trusted code,
 * and when it crashes the process is lost whatever Framelab does. What Framelab can do is
 * say so in one line naming the element, instead of the Swift runtime's multi-page
 * backtrace of code the user did not write. The host marks each call into a plugin on the
 * calling thread; the signal handler (async-signal-safe: write(2) only) checks that mark.
 * Swift has no thread-local storage, hence C. */
#ifndef FRAMELAB_CRASH_GUARD_H
#define FRAMELAB_CRASH_GUARD_H

/* Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT (once; later calls
 * do nothing) and an atexit hook. Outside a plugin call the previous handlers run as before. */
void fl_crash_guard_install(void);

/* Makes fl_crash_guard_install do nothing in this process (the plugin worker). */
void fl_crash_guard_forgo(void);

/* Marks the calling thread as inside a plugin call: `label` names the element (e.g.
 * "element 'blur' (/path/libblur.so)"), `doing` what it was asked ("processing a frame").
 * Both strings must stay valid until the matching leave. Returns the previous mark, to be
 * handed back to fl_crash_guard_leave (calls may nest: loading inside a trial). */
const void *fl_crash_guard_enter(const char *label, const char *doing);
void fl_crash_guard_leave(const void *previous);

#endif
