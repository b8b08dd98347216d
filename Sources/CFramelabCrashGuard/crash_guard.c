#define _GNU_SOURCE
#include "framelab_crash_guard.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mark { const char *label; const char *doing; };

/* Per thread: each thread calls its own plugin instances. */
static _Thread_local struct mark marks[8];
static _Thread_local int depth;

static const int guarded[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define GUARDED_COUNT (int)(sizeof guarded / sizeof guarded[0])
static struct sigaction previous_actions[GUARDED_COUNT];
static int installed;

static void say(const char *text) {
    size_t left = strlen(text);
    while (left > 0) {
        ssize_t n = write(2, text, left);
        if (n <= 0) return;
        text += n;
        left -= (size_t)n;
    }
}

static const char *signal_name(int sig) {
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a signal";
    }
}

/* Ends the process by `sig` with its default action (a core dump where that is the
 * default), so the exit status still says which signal it was. */
static void die_of(int sig) {
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static void handler(int sig, siginfo_t *info, void *context) {
    int i = 0;
    while (i < GUARDED_COUNT && guarded[i] != sig) i++;
    if (depth > 0 && depth <= 8) {
        const struct mark *m = &marks[depth - 1];
        say("framelab: error: ");
        say(m->label);
        say(" crashed with ");
        say(signal_name(sig));
        say(" while ");
        say(m->doing);
        say(" in the framelab process; run with --isolate to run plugins in a worker process, "
            "where a crash fails the frame instead of ending the run\n");
        /* Die of the same signal, without the runtime's backtrace. */
        die_of(sig);
    }
    /* Not in a plugin: whatever handled the signal before (the Swift runtime's backtracer). */
    if (i < GUARDED_COUNT) {
        struct sigaction *old = &previous_actions[i];
        if (old->sa_flags & SA_SIGINFO) {
            if (old->sa_sigaction) { old->sa_sigaction(sig, info, context); return; }
        } else if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
            old->sa_handler(sig);
            return;
        }
    }
    die_of(sig);
}

/* exit() called by plugin code runs atexit hooks on the calling thread, so the mark still
 * says whose call it was. (_exit cannot be seen at all.) */
static void at_exit(void) {
    if (depth > 0 && depth <= 8) {
        const struct mark *m = &marks[depth - 1];
        say("framelab: error: ");
        say(m->label);
        say(" called exit() while ");
        say(m->doing);
        say(", ending the framelab process; run with --isolate to run plugins in a worker process\n");
    }
}

void fl_crash_guard_install(void) {
    if (__atomic_exchange_n(&installed, 1, __ATOMIC_SEQ_CST)) return;
    for (int i = 0; i < GUARDED_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handler;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(guarded[i], &action, &previous_actions[i]);
    }
    atexit(at_exit);
}

void fl_crash_guard_forgo(void) { __atomic_store_n(&installed, 1, __ATOMIC_SEQ_CST); }

const void *fl_crash_guard_enter(const char *label, const char *doing) {
    if (depth < 8) {
        marks[depth].label = label;
        marks[depth].doing = doing;
    }
    depth++;
    return (const void *)(long)(depth - 1);
}

void fl_crash_guard_leave(const void *previous) {
    depth = (int)(long)previous;
}
