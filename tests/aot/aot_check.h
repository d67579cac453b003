/* The checks of the AOT test programs (C99 and C++): check() counts and reports each assertion,
 * check_summary() prints "N passed, N failed" and gives the program's exit code. Included once
 * per program. */
#ifndef LOOM_TESTS_AOT_CHECK_H
#define LOOM_TESTS_AOT_CHECK_H

#include <stdio.h>

static int passed = 0, failed = 0;

static void check(int ok, const char *what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAILED: %s\n", what);
    }
}

static int check_summary(void) {
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}

#endif
